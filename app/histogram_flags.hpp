// A histogram's flags, shared by run, compare and inspect: --bins N (1 to 2^24), --range LO:HI
// and --counters u32|u64, into the levels every layer plans by; and --dist for every primitive,
// whose names differ by primitive (a histogram's samples are drawn over its levels).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "xreduce/generate.hpp"
#include "xreduce/histogram.hpp"
#include "xreduce/histogram_samples.hpp"
#include "xreduce/primitive.hpp"
#include "xreduce/types.hpp"

namespace xr::app {

// The flags as given; unset ones take the defaults (256 bins over 0:256, u32 counters).
struct HistogramFlags {
  std::optional<std::string> bins, range, counters;
  bool any() const { return bins || range || counters; }
};

// Error(usage) with one line for a --bins that is not a whole number from 1 to 2^24, a --range
// that is not LO:HI with finite LO < HI, or --counters other than u32 and u64.
HistogramLevels parse_histogram_flags(const HistogramFlags& flags);
// Error(usage) "--bins, --range and --counters apply to --primitive histogram" where any is set.
void refuse_histogram_flags(const HistogramFlags& flags);
// Error(usage) with histogram_levels_error's line, naming the dtype, where the levels do not suit
// samples of `t`; Error(unsupported) where `t` is not a histogram's sample type.
void check_histogram_levels(const HistogramLevels& levels, DType t);

// What --dist asks of one primitive: the elements' distribution (reduce, scan, sort) or a
// histogram's samples' (drawn over its levels).
struct DataDistribution {
  Distribution elements = Distribution::small;
  SampleDistribution samples = SampleDistribution::uniform;
};
// --dist for `primitive`: empty for its default (small; a histogram's uniform), else a name it
// takes; Error(usage) naming what it takes otherwise.
DataDistribution parse_dist_arg(std::string_view text, Primitive primitive);
// The distribution's name for `primitive`, as reports record it.
std::string_view dist_name(const DataDistribution& d, Primitive primitive);
// n elements of `t` for `operation`: generate()'s, or histogram_samples over its levels.
HostArray generate_input(DType t, std::size_t n, std::uint64_t seed, const DataDistribution& d,
                         const Operation& operation);

}  // namespace xr::app
