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
  // i32/u32 uniform in [0, 255] (seed 000's `rand() & 0xFF`); f32 uniform in [-1, 1) on a 2^-24
  // grid. The default of the tool.
  small,
  // i32/u32 uniform over all 2^32 bit patterns (sums wrap); f32 uniform in [-2^20, 2^20).
  full,
  // i32/u32: the type's min and max, 0, 1 and -1 mixed; f32: +-2^24, +-1, negative tiny and
  // large magnitudes (all finite).
  extremes,
};

std::string_view to_string(Distribution d);
std::optional<Distribution> parse_distribution(std::string_view s);

// SplitMix64's finaliser of (seed, index): the documented element hash.
std::uint64_t element_hash(std::uint64_t seed, std::uint64_t index);

HostArray generate(DType dtype, std::size_t n, std::uint64_t seed,
                   Distribution dist = Distribution::small);
// n copies of `value` converted to dtype.
HostArray constant(DType dtype, std::size_t n, double value);

}  // namespace xr
