// The check of a histogram: every bin's count of the input by the rule (histogram.hpp's
// EvenBins), computed once per (input, levels) on the host, against which every variant's counts
// are checked bin for bin, exactly.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "xreduce/histogram.hpp"
#include "xreduce/reference.hpp"
#include "xreduce/types.hpp"

namespace xr {

// The count of each bin of `samples` under `levels` (in parallel over chunks of the input).
// Requires levels that histogram_levels_error<T> accepts.
template <class T>
std::vector<std::uint64_t> histogram_counts(std::span<const T> samples,
                                            const HistogramLevels& levels);

class HistogramReference {
 public:
  // Error(usage) with histogram_levels_error's line where the levels do not suit the samples;
  // Error(unsupported) for a sample dtype the rule is not defined for.
  HistogramReference(HostView samples, const HistogramLevels& levels);
  // The same for a typed span of one of kHistogramSampleDTypes.
  template <class T>
  HistogramReference(std::span<const T> samples, const HistogramLevels& levels);

  // Checks a variant's counts, one per bin: the message counts the wrong bins and names the first
  // (bin, got, expected).
  Verdict validate(std::span<const std::uint32_t> counts) const;
  Verdict validate(std::span<const std::uint64_t> counts) const;

  const std::vector<std::uint64_t>& counts() const { return counts_; }
  // Samples counted in some bin (the rest are out of range or NaN).
  std::uint64_t counted() const { return counted_; }

 private:
  template <class C>
  Verdict compare(std::span<const C> counts) const;

  std::vector<std::uint64_t> counts_;
  std::uint64_t counted_ = 0;
};

}  // namespace xr
