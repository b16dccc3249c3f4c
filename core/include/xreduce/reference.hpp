// The host reference and the verdict on a backend's result.
//
// Integers are exact: i32/u32 sums wrap modulo 2^32 (two's complement for i32), min/max exact.
// Floats are reduced in double. A float sum passes when
//     |got - ref| <= (ceil(log2(max(n, 2))) + 2) * 2^-23 * sum(|x|)
// the rounding bound of a pairwise (tree) float sum, where each of the log2(n) levels adds at
// most one float rounding (2^-24 relative, doubled for slack) of partial sums whose magnitudes
// total sum(|x|), plus two for the final rounding to float and per-thread accumulation before the
// tree. Float min/max are exact. NaN in the input is outside the contract.
#pragma once

#include <cstddef>
#include <string>

#include "xreduce/types.hpp"

namespace xr {

struct Reference {
  Value value;         // in the input's dtype (float sums rounded from the double result)
  double exact = 0;    // the double-precision result (== value for integers and min/max)
  double abs_sum = 0;  // sum(|x|) in double, for the float bound
  std::size_t n = 0;
};

Reference reference_reduce(HostView data, Op op);

// The float tolerance above for n elements whose magnitudes sum to abs_sum.
double float_sum_bound(std::size_t n, double abs_sum);

struct Verdict {
  bool ok = false;
  double error = 0;     // |got - ref| (0 for exact matches)
  double bound = 0;     // the tolerance applied (0 for exact comparisons)
  std::string message;  // empty when ok; else "got X, expected Y (|err| E > bound B)"
};

Verdict validate(const Value& got, const Reference& ref, Op op);

}  // namespace xr
