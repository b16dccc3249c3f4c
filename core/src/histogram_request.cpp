#include "xreduce/histogram_request.hpp"

#include <string>
#include <utility>

#include "xreduce/error.hpp"

namespace xr {

namespace {

void check_claims(const VariantInfo& variant, DType t, const HistogramLevels& levels) {
  if (!variant.claims(t))
    throw Error(ErrorCategory::unsupported,
                variant.id + " does not count " + std::string(to_string(t)) + " samples");
  if (levels.bins > variant.max_bins)
    throw Error(ErrorCategory::unsupported, variant.id + " counts at most " +
                                                std::to_string(variant.max_bins) + " bins, not " +
                                                std::to_string(levels.bins));
}

void check_counts(const DeviceArray& samples, const DeviceArray& counts,
                  const HistogramLevels& levels) {
  if (&samples == &counts || counts.dtype() != counts_dtype(levels.counts) ||
      counts.size() != levels.bins)
    throw Error(ErrorCategory::usage, "a histogram's counts must be a distinct array of " +
                                          std::to_string(levels.bins) + " " +
                                          std::string(to_string(levels.counts)) + " counters");
}

}  // namespace

HistogramRequest HistogramRequest::make(const VariantInfo& variant, DeviceArray& samples,
                                        DeviceArray& counts, const HistogramLevels& levels,
                                        bool count_on_device) {
  check_claims(variant, samples.dtype(), levels);
  check_counts(samples, counts, levels);
  HistogramDesc desc{
      .dtype = samples.dtype(), .count = samples.size(), .levels = levels, .variant = variant.id};
  check_histogram_desc(desc);
  return HistogramRequest(samples, counts, std::move(desc), count_on_device);
}

void HistogramRequest::check_made_for(const VariantInfo& variant) const {
  if (desc_.variant != variant.id)
    throw Error(ErrorCategory::usage,
                "a histogram request made for " + desc_.variant + " was given to " + variant.id);
}

}  // namespace xr
