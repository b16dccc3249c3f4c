// A histogram's inputs, by the contention they make: the distributions its conformance and its
// benchmarks generate, each over a histogram's levels, deterministic for a seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "xreduce/histogram.hpp"
#include "xreduce/types.hpp"

namespace xr {

enum class SampleDistribution : std::uint8_t {
  uniform,   // over [lower, upper): every bin alike (atomics spread over the bins)
  one_bin,   // every sample the same value: one bin takes them all (the worst contention)
  skewed,    // lower + width * u^8 for u uniform in [0, 1): half the samples in the lowest
             // 1/256 of the range, a few bins take most
  image,     // a frame's luminance in row order: a smooth signal and a little noise, so that
             // neighbouring samples fall in the same or nearby bins
  part_out,  // uniform over the range widened by half its width each side, as far as the type
             // reaches: about half out of range; for floats 1 in 64 a NaN besides
};
inline constexpr SampleDistribution kAllSampleDistributions[] = {
    SampleDistribution::uniform, SampleDistribution::one_bin, SampleDistribution::skewed,
    SampleDistribution::image, SampleDistribution::part_out};

// "uniform", "one-bin", "skewed", "image", "part-out".
std::string_view to_string(SampleDistribution d);
std::optional<SampleDistribution> parse_sample_distribution(std::string_view s);

// n samples of `t` (one of kHistogramSampleDTypes) drawn from `d` over `levels`, the same for a
// seed on every machine. Requires levels that histogram_levels_error accepts for `t`;
// Error(unsupported) for a type that is not a histogram's sample.
HostArray histogram_samples(DType t, std::size_t n, std::uint64_t seed, SampleDistribution d,
                            const HistogramLevels& levels);

}  // namespace xr
