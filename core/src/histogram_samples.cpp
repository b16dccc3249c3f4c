#include "xreduce/histogram_samples.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include "xreduce/generate.hpp"

namespace xr {

std::string_view to_string(SampleDistribution d) {
  switch (d) {
    case SampleDistribution::uniform:
      return "uniform";
    case SampleDistribution::one_bin:
      return "one-bin";
    case SampleDistribution::skewed:
      return "skewed";
    case SampleDistribution::image:
      return "image";
    case SampleDistribution::part_out:
      return "part-out";
  }
  return "?";
}

std::optional<SampleDistribution> parse_sample_distribution(std::string_view s) {
  for (SampleDistribution d : kAllSampleDistributions)
    if (to_string(d) == s) return d;
  return std::nullopt;
}

namespace {

// A hash's top 53 bits as a double in [0, 1), exactly.
double unit_of(std::uint64_t h) {
  return std::ldexp(static_cast<double>(h >> 11), -53);
}

// A frame 1024 samples wide, in row order: two slow waves across and down it and a little noise,
// within [0, 1).
double luminance(std::size_t i, std::uint64_t h) {
  constexpr double kTau = 2 * std::numbers::pi;
  const double col = static_cast<double>(i % 1024), row = static_cast<double>(i / 1024);
  const double wave = 0.5 + 0.25 * std::sin(kTau * col / 512 + row / 97) +
                      0.15 * std::sin(kTau * row / 256) + 0.04 * (unit_of(h) - 0.5);
  return std::clamp(wave, 0.0, std::nextafter(1.0, 0.0));
}

// Where in the range (a fraction of its width from lower; outside [0, 1) out of range) sample i
// falls, or NaN.
double position(SampleDistribution d, std::size_t i, std::uint64_t seed, bool floats) {
  const std::uint64_t h = element_hash(seed, i);
  switch (d) {
    case SampleDistribution::uniform:
      return unit_of(h);
    case SampleDistribution::one_bin:
      return unit_of(element_hash(seed, ~std::uint64_t{0}));
    case SampleDistribution::skewed:
      return std::pow(unit_of(h), 8);
    case SampleDistribution::image:
      return luminance(i, h);
    case SampleDistribution::part_out:
      if (floats && (h & 63) == 0) return std::numeric_limits<double>::quiet_NaN();
      return 2 * unit_of(h) - 0.5;
  }
  return 0;
}

// The sample at `at` (a fraction of the range's width from lower), in T: integers floored, both
// kept within the type (and a position in [0, 1) within [lower, upper)).
template <class T>
T sample_at(double at, const HistogramLevels& levels) {
  const double width = levels.upper - levels.lower;
  const bool inside = at >= 0 && at < 1;
  double x = levels.lower + at * width;
  if constexpr (std::is_integral_v<T>) {
    x = std::floor(x);
    if (inside) x = std::min(x, levels.upper - 1);
    return static_cast<T>(std::clamp(x, static_cast<double>(std::numeric_limits<T>::lowest()),
                                     static_cast<double>(std::numeric_limits<T>::max())));
  } else {
    if (std::isnan(at)) return std::numeric_limits<T>::quiet_NaN();
    const double most = std::numeric_limits<T>::max();
    T s = static_cast<T>(std::clamp(x, -most, most));
    const T upper = static_cast<T>(levels.upper);
    if (inside && s >= upper) s = std::nextafter(upper, std::numeric_limits<T>::lowest());
    return s;
  }
}

}  // namespace

HostArray histogram_samples(DType t, std::size_t n, std::uint64_t seed, SampleDistribution d,
                            const HistogramLevels& levels) {
  return visit_histogram_sample(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    HostArray out(t, n);
    auto xs = out.as<T>();
    for (std::size_t i = 0; i < n; ++i)
      xs[i] = sample_at<T>(position(d, i, seed, std::is_floating_point_v<T>), levels);
    return out;
  });
}

}  // namespace xr
