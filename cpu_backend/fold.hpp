// What the CPU variants of both primitives share: the fixed chunk of the parallel variants and the
// op-specialised fold.
#pragma once

#include <cstddef>
#include <span>
#include <type_traits>

#include "xreduce/types.hpp"

namespace xr::cpu {

// Elements per task of cpu/parallel (reduce and scan): 64K 4-byte elements (256 KiB) fit a
// core's L2 and give TBB ~4K tasks at 2^28, enough to balance; fixed so the partials, hence the
// results, do not depend on the thread count.
constexpr std::size_t kParallelChunk = 64 * 1024;

// Folds xs into acc; the op is a template constant inside the loop so each loop is specialised.
// Accumulation in HostAcc<T> (xreduce/types.hpp): floats in double (f64 in long double),
// integers wrapping.
template <class T>
HostAcc<T> fold(std::span<const T> xs, Op op, HostAcc<T> acc) {
  return with_op_constant(op, [&](auto op_constant) {
    for (T x : xs) acc = apply<HostAcc<T>>(op_constant.value, acc, static_cast<HostAcc<T>>(x));
    return acc;
  });
}

}  // namespace xr::cpu
