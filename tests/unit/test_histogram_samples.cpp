// A histogram's generated inputs: each distribution makes the contention its name says, over the
// levels it is given, the same for a seed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "test_support.hpp"
#include "xreduce/histogram_reference.hpp"
#include "xreduce/histogram_samples.hpp"

using xr::DType;
using xr::HistogramLevels;
using xr::SampleDistribution;

namespace {

xr::HistogramReference counts_of(const xr::HostArray& samples, const HistogramLevels& levels) {
  return xr::HistogramReference(samples.view(), levels);
}

std::vector<std::uint64_t> sorted_down(std::vector<std::uint64_t> counts) {
  std::sort(counts.begin(), counts.end(), std::greater<>());
  return counts;
}

// Levels every sample type holds, a bin a value for the integers, a range narrower than the
// 8-bit one so that part-out's widened range reaches outside it in every type.
constexpr HistogramLevels kLevels{.bins = 128, .lower = 64, .upper = 192};

}  // namespace

TEST_CASE("sample distributions: names round-trip, unknown names and types are refused",
          "[unit][histogram]") {
  for (SampleDistribution d : xr::kAllSampleDistributions)
    CHECK(xr::parse_sample_distribution(xr::to_string(d)) == d);
  CHECK_FALSE(xr::parse_sample_distribution("gauss").has_value());
  xrtest::require_error(
      [] { xr::histogram_samples(DType::i64, 10, 1, SampleDistribution::uniform, kLevels); },
      xr::ErrorCategory::unsupported, "a histogram does not take i64 samples");
}

TEST_CASE("sample distributions are the same for a seed and differ across seeds",
          "[unit][histogram]") {
  for (DType t : xr::kHistogramSampleDTypes)
    for (SampleDistribution d : xr::kAllSampleDistributions) {
      INFO(xr::to_string(t) << " " << xr::to_string(d));
      const auto a = xr::histogram_samples(t, 5000, 42, d, kLevels);
      const auto b = xr::histogram_samples(t, 5000, 42, d, kLevels);
      const auto c = xr::histogram_samples(t, 5000, 43, d, kLevels);
      REQUIRE(a.size() == 5000);
      CHECK(std::memcmp(a.data(), b.data(), a.bytes()) == 0);
      CHECK(std::memcmp(a.data(), c.data(), a.bytes()) != 0);
    }
}

TEST_CASE("each sample distribution makes the contention it names", "[unit][histogram]") {
  constexpr std::size_t n = 128 * 1000;
  for (DType t : xr::kHistogramSampleDTypes) {
    INFO(xr::to_string(t));
    const auto of = [&](SampleDistribution d) {
      return counts_of(xr::histogram_samples(t, n, 7, d, kLevels), kLevels);
    };
    // Uniform: every sample counted, every bin within a fifth of its share.
    const auto uniform = of(SampleDistribution::uniform);
    CHECK(uniform.counted() == n);
    const auto& spread = uniform.counts();
    CHECK(*std::min_element(spread.begin(), spread.end()) > 800);
    CHECK(*std::max_element(spread.begin(), spread.end()) < 1200);
    // One bin takes every sample.
    const auto one = sorted_down(of(SampleDistribution::one_bin).counts());
    CHECK(one[0] == n);
    CHECK(one[1] == 0);
    // Skewed: the four fullest bins take more than half the samples, and every sample counts.
    const auto skewed = of(SampleDistribution::skewed);
    CHECK(skewed.counted() == n);
    const auto top = sorted_down(skewed.counts());
    CHECK(top[0] + top[1] + top[2] + top[3] > n / 2);
    // Part out of range: between a third and two thirds counted.
    const auto part = of(SampleDistribution::part_out);
    CHECK(part.counted() > n / 3);
    CHECK(part.counted() < 2 * n / 3);
  }
}

TEST_CASE("image samples change little from one to the next, part-out floats hold NaNs",
          "[unit][histogram]") {
  const HistogramLevels levels{.bins = 256, .lower = 0, .upper = 1};
  const auto frame =
      xr::histogram_samples(DType::f32, 1 << 16, 3, SampleDistribution::image, levels);
  const auto pixels = frame.as<float>();
  double steps = 0;
  for (std::size_t i = 1; i < pixels.size(); ++i)
    steps += std::abs(static_cast<double>(pixels[i]) - pixels[i - 1]);
  CHECK(steps / static_cast<double>(pixels.size() - 1) < 1.0 / 32);
  CHECK(counts_of(frame, levels).counted() == pixels.size());
  // Its bins are many, not one: a frame, not a flat field.
  const auto busy = counts_of(frame, levels).counts();
  CHECK(std::count_if(busy.begin(), busy.end(), [](std::uint64_t c) { return c > 0; }) > 128);

  const auto part =
      xr::histogram_samples(DType::f64, 1 << 14, 5, SampleDistribution::part_out, levels);
  const auto xs = part.as<double>();
  const auto nans = std::count_if(xs.begin(), xs.end(), [](double x) { return std::isnan(x); });
  CHECK(nans > 0);
  CHECK(nans < static_cast<long>(xs.size()) / 32);
  // A byte's whole range as levels: part-out reaches no further than the type, so every sample
  // counts.
  const HistogramLevels bytes{.bins = 256, .lower = 0, .upper = 256};
  CHECK(counts_of(xr::histogram_samples(DType::u8, 4096, 9, SampleDistribution::part_out, bytes),
                  bytes)
            .counted() == 4096);
}
