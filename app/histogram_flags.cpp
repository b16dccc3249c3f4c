#include "histogram_flags.hpp"

#include <charconv>

#include <fmt/format.h>

#include "xreduce/error.hpp"
#include "xreduce/printable.hpp"

namespace xr::app {

namespace {

std::uint32_t parse_bins(std::string_view text) {
  std::uint64_t bins = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), bins);
  if (ec != std::errc{} || end != text.data() + text.size() || bins < 1 || bins > kMaxHistogramBins)
    throw Error(ErrorCategory::usage,
                fmt::format("--bins '{}': expected a whole number from 1 to {}", printable(text),
                            kMaxHistogramBins));
  return static_cast<std::uint32_t>(bins);
}

}  // namespace

HistogramLevels parse_histogram_flags(const HistogramFlags& flags) {
  HistogramLevels levels;
  if (flags.bins) levels.bins = parse_bins(*flags.bins);
  if (flags.range) {
    const auto range = parse_histogram_range(*flags.range);
    if (!range)
      throw Error(ErrorCategory::usage,
                  fmt::format("--range '{}': expected LO:HI, two finite numbers with LO < HI",
                              printable(*flags.range)));
    levels.lower = range->first;
    levels.upper = range->second;
  }
  if (flags.counters) {
    const auto counts = parse_histogram_counts(*flags.counters);
    if (!counts)
      throw Error(ErrorCategory::usage, fmt::format("unknown --counters '{}' (expected u32 or u64)",
                                                    printable(*flags.counters)));
    levels.counts = *counts;
  }
  return levels;
}

void refuse_histogram_flags(const HistogramFlags& flags) {
  if (flags.any())
    throw Error(ErrorCategory::usage,
                "--bins, --range and --counters apply to --primitive histogram");
}

void check_histogram_levels(const HistogramLevels& levels, DType t) {
  const auto wrong = visit_histogram_sample(
      t, [&](auto tag) { return histogram_levels_error<typename decltype(tag)::type>(levels); });
  if (wrong)
    throw Error(ErrorCategory::usage,
                fmt::format("{} for {} samples (--bins, --range)", *wrong, to_string(t)));
}

DataDistribution parse_dist_arg(std::string_view text, Primitive primitive) {
  DataDistribution d;
  if (text.empty()) return d;
  if (primitive == Primitive::histogram) {
    if (auto s = parse_sample_distribution(text)) {
      d.samples = *s;
      return d;
    }
    throw Error(ErrorCategory::usage,
                fmt::format("unknown --dist '{}' for a histogram (expected uniform, one-bin, "
                            "skewed, image or part-out)",
                            printable(text)));
  }
  if (auto e = parse_distribution(text)) {
    if (sort_only(*e) && primitive != Primitive::sort)
      throw Error(ErrorCategory::usage,
                  fmt::format("--dist {} generates keys for a sort, not for a {}", text,
                              to_string(primitive)));
    d.elements = *e;
    return d;
  }
  throw Error(ErrorCategory::usage,
              fmt::format("unknown --dist '{}' for a {} (expected small, full, extremes{})",
                          printable(text), to_string(primitive),
                          primitive == Primitive::sort
                              ? ", few, sorted, reversed, top-digit or bottom-digit"
                              : "; a histogram's: uniform, one-bin, skewed, image, part-out"));
}

std::string_view dist_name(const DataDistribution& d, Primitive primitive) {
  return primitive == Primitive::histogram ? to_string(d.samples) : to_string(d.elements);
}

HostArray generate_input(DType t, std::size_t n, std::uint64_t seed, const DataDistribution& d,
                         const Operation& operation) {
  if (operation.primitive == Primitive::histogram)
    return histogram_samples(t, n, seed, d.samples, operation.levels);
  return generate(t, n, seed, d.elements);
}

}  // namespace xr::app
