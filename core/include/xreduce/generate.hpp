// The seeded data generator. Counter-based (SplitMix64 of seed and index), so element i depends
// only on (seed, i): the same data on every platform and thread count, and any slice can be
// generated on its own. Never rand().
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "xreduce/types.hpp"

namespace xr {

enum class Distribution {
  // Integers uniform in [0, 255] (the classic reduction benchmark's `rand() & 0xFF`); floats
  // uniform in [-1, 1) on the
  // type's grid (2^-24 for f32, 2^-53 f64, 2^-11 f16, 2^-8 bf16). The default of the tool.
  small,
  // Integers uniform over all bit patterns (sums wrap); floats uniform in [-2^20, 2^20)
  // (f16: [-16, 16), so sums of the tests' sizes stay below its 65504).
  full,
  // Integers: the type's min and max, 0, 1 and -1 mixed; floats: +-2^digits (the largest
  // consecutive integers: 2^24 for f32), +-1, negative tiny and large magnitudes (3e30, f64
  // 3e300; f16: -2^-20, a subnormal, and +-16384), all finite.
  extremes,
  // The keys that stress a sort (sort_keys.hpp's order): 16 distinct keys of the full
  // distribution; the full distribution already sorted, or reversed (these two depend on n, not
  // on the index alone); keys whose ordered bits are one random pattern's but for the top 8 bits,
  // or the bottom 8 (any bit pattern: NaNs and infinities among floats). For sort only: reduce
  // and scan refuse them.
  few,
  sorted,
  reversed,
  top_digit,
  bottom_digit,
};
inline constexpr Distribution kAllDistributions[] = {
    Distribution::small,     Distribution::full,        Distribution::extremes,
    Distribution::few,       Distribution::sorted,      Distribution::reversed,
    Distribution::top_digit, Distribution::bottom_digit};

// Whether `d` is one of the keys that stress a sort, which reduce and scan refuse.
bool sort_only(Distribution d);

std::string_view to_string(Distribution d);
std::optional<Distribution> parse_distribution(std::string_view s);

// SplitMix64's finaliser of (seed, index): the documented element hash.
std::uint64_t element_hash(std::uint64_t seed, std::uint64_t index);

HostArray generate(DType dtype, std::size_t n, std::uint64_t seed,
                   Distribution dist = Distribution::small);
// n copies of `value` converted to dtype.
HostArray constant(DType dtype, std::size_t n, double value);

}  // namespace xr
