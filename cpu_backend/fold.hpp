// What the CPU variants of both primitives share: the accumulator type, the fixed chunk of the
// parallel variants, and the op-specialised fold.
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

// Floats accumulate in double, the host's natural wide accumulator, so the reference backend is
// the most accurate one; integers in their own type (sums wrap modulo 2^32 like the GPUs').
template <class T>
using Acc = std::conditional_t<std::is_floating_point_v<T>, double, T>;

template <class T>
Acc<T> acc_identity(Op op) {
  return static_cast<Acc<T>>(identity<T>(op));
}

// Folds xs into acc; the op is a template constant inside the loop so each loop is specialised.
template <class T>
Acc<T> fold(std::span<const T> xs, Op op, Acc<T> acc) {
  auto run = [&](auto op_constant) {
    for (T x : xs) acc = apply<Acc<T>>(op_constant.value, acc, x);
    return acc;
  };
  switch (op) {
    case Op::sum:
      return run(std::integral_constant<Op, Op::sum>{});
    case Op::min:
      return run(std::integral_constant<Op, Op::min>{});
    case Op::max:
      return run(std::integral_constant<Op, Op::max>{});
  }
  return acc;
}

}  // namespace xr::cpu
