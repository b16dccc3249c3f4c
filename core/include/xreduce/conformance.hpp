// The conformance cases of one variant, the same for the Catch2 suite (tests/conformance) and
// `xreduce check` (a user's --kernel): what it does not claim is refused; every claimed dtype x
// size (edge and random) x data kind x operation agrees with the host reference (xr::Expectation:
// every element of a scan); constant floats are exact where every order is; two runs agree
// bitwise where the variant declares it; batch mode's last call agrees; the input is unchanged
// unless the variant declares it writes it. Every check goes to a listener with its context.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "xreduce/backend.hpp"
#include "xreduce/primitive.hpp"

namespace xr {

struct ConformanceOptions {
  std::uint64_t seed = 0x5EED2024u;  // of the random sizes and data
  // Every size for every dtype; otherwise past kAllKindsUpTo elements the 32-bit types alone run
  // (the code paths of larger sizes are the same for every element type).
  bool every_size = false;
  std::uint64_t max_size = 0;  // 0: none; else every dtype's sizes stop here
  int max_failures = 25;       // a case stops here: one bug, not thousands of lines
};

// Where a check ran.
struct CheckContext {
  std::string backend, device, id, dtype, distribution, operation;
  std::uint64_t n = 0;
  std::string describe() const;  // "i32 n=257 random/full, inclusive scan sum"
};

class ConformanceListener {
 public:
  virtual ~ConformanceListener() = default;
  // One check: whether it held, what it checked ("result", "refuses unclaimed", ...) and the
  // verdict's words (the first wrong element of a scan, the error a variant threw).
  virtual void check(bool ok, const CheckContext& where, std::string_view what,
                     std::string_view message) = 0;
};

struct ConformanceSummary {
  std::uint64_t checks = 0;
  std::uint64_t failures = 0;
  bool stopped = false;  // max_failures reached
};

// Error(unsupported) or Error(unavailable) pass through when the variant cannot be made.
ConformanceSummary run_conformance(Backend& backend, Primitive primitive, std::string_view id,
                                   const ConformanceOptions& options,
                                   ConformanceListener& listener);

// Every operation of `info`'s primitive it claims on `t` (ops x scan kinds; a sort's orders,
// keys and pairs, and bit ranges within a key of `t`, one with its count on the device where the
// variant takes one; a histogram's histogram_operations, its bins capped at the variant's most,
// the 257 bins' with the count on the device where it takes one), and every one there is.
std::vector<Operation> claimed_operations(const VariantInfo& info, DType t);
// The sorts conformance runs on keys of `t`: both orders, keys and pairs, every bit, and three
// bit ranges (one digit, one inside digits, the upper half).
std::vector<Operation> sort_operations(DType t);
// The range a histogram's conformance draws samples of `t` over (256 bins): u8's and u16's every
// value, i32's and the floats' a width no power of two divides, u32's every value.
HistogramLevels histogram_conformance_levels(DType t);
// The histograms conformance runs on samples of `t`: 1, 2, 255, 256, 257 and 4096 bins over that
// range with u32 counts, 65536 bins with u64 counts, and 256 bins over a range inside it.
std::vector<Operation> histogram_operations(DType t);
std::vector<Operation> all_operations(Primitive p);
bool claims(const VariantInfo& info, DType t, const Operation& op);
// Bits no correct output is likely to hold: a scan's output is filled with them before a run.
HostArray poison(DType t, std::size_t n);
// Empty when `a` and `b` hold the same bytes; else why they differ.
std::string bytes_mismatch(const HostArray& a, const HostArray& b);

}  // namespace xr
