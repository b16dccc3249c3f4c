// The host reference and the verdict on a backend's result.
//
// Integers are exact: sums wrap modulo 2^32 or 2^64 (two's complement for signed types), min/max
// exact. Floats are reduced in double (f64 in long double). An f32 sum passes when
//     |got - ref| <= (ceil(log2(max(n, 2))) + 2) * 2^-23 * sum(|x|)
// the rounding bound of a pairwise (tree) float sum, where each of the log2(n) levels adds at
// most one float rounding (2^-24 relative, doubled for slack) of partial sums whose magnitudes
// total sum(|x|), plus two for the final rounding to float and per-thread accumulation before the
// tree. Float min/max are exact. NaN in the input is outside the contract.
//
// f64 uses the same bound with 2^-52; f16 and bf16, which every backend accumulates in float and
// rounds once, the f32 bound plus the rounding to the 16-bit type (float_sum_bound below).
//
// Scans are checked element by element (validate_scan): integers exact, min/max exact, and a
// float sum's element i passes when
//     |got_i - ref_i| <= (ceil(log2(max(n, 2))) + 2) * 2^-23 * A_i
// where ref_i is the prefix in double and A_i = sum(|x_j|) over the elements the prefix covers
// (j <= i inclusive, j < i exclusive): the reduce bound applied to each prefix, so an algorithm
// whose combination tree has log2(n) levels passes. A look-back scan chains its tile prefixes
// serially; on same-sign data its error grows like sqrt(tiles) rather than log2(n) (simulated:
// 0.67 of the bound at 2^26 positive floats in 4096-element tiles), so past ~2^27 such data can
// exceed the bound. Mixed-sign data, which the generator and the tests use, stays far within it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "xreduce/primitive.hpp"
#include "xreduce/types.hpp"

namespace xr {

struct Reference {
  Value value;         // in the input's dtype (float sums rounded from the double result)
  double exact = 0;    // the double-precision result (== value for integers and min/max)
  double abs_sum = 0;  // sum(|x|) in double, for the float bound
  std::size_t n = 0;
};

Reference reference_reduce(HostView data, Op op);

// The f32 tolerance above for n elements whose magnitudes sum to abs_sum.
double float_sum_bound(std::size_t n, double abs_sum);
// The tolerance for float type t: the tree bound above with the epsilon of t's accumulator
// (2^-23 for f32, f16 and bf16, which accumulate in float; 2^-52 for f64), plus, for f16/bf16,
// rounding a result of |magnitude| to t at most twice (2^-fraction_bits(t) * magnitude) and the
// type's smallest subnormal.
double float_sum_bound(DType t, std::size_t n, double abs_sum, double magnitude);

struct Verdict {
  bool ok = false;
  double error = 0;     // |got - ref| (0 for exact matches)
  double bound = 0;     // the tolerance applied (0 for exact comparisons)
  std::string message;  // empty when ok; else "got X, expected Y (|err| E > bound B)"
};

Verdict validate(const Value& got, const Reference& ref, Op op);

// The scan of `input` by `op`, sequentially, into the input's dtype (float sums accumulate in
// double and round once per element). For tests and small inputs; validate_scan does not need it.
HostArray reference_scan(HostView input, Op op, ScanKind kind);

// Host-side state of a scan check that does not depend on the result: the exact prefix at the
// start of every chunk, computed once per (input, op, kind) in parallel and reused for every
// variant's output.
class ScanReference {
 public:
  ScanReference(HostView input, Op op, ScanKind kind);
  // Checks every element of `got` (same dtype and size as the input, else a failed verdict),
  // in parallel. The message names how many elements are wrong and the first one (index, got,
  // want); when all pass, error/bound are those of the element closest to its bound.
  Verdict validate(HostView got) const;
  // The reference of the last element (none for n == 0): what a report shows.
  std::optional<Value> last() const;

  HostView input() const { return input_; }

 private:
  HostView input_;
  Op op_;
  ScanKind kind_;
  std::vector<long double> chunk_start_;   // floats: exact prefix before each chunk
  std::vector<double> chunk_abs_start_;    // floats: sum of |x| before each chunk
  std::vector<std::uint64_t> chunk_bits_;  // integers: prefix before each chunk, as bits
};

// One-shot form of ScanReference(input, op, kind).validate(got).
Verdict validate_scan(HostView input, HostView got, Op op, ScanKind kind);

}  // namespace xr
