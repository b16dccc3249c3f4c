// One histogram as the tool asks a Histogrammer for it: the call's arrays and the HistogramDesc
// every layer below plans by (sample type, count, levels, variant), checked once where it is made.
#pragma once

#include <utility>

#include "xreduce/backend.hpp"
#include "xreduce/histogram_desc.hpp"

namespace xr {

class HistogramRequest {
 public:
  // The histogram of `samples` under `levels` into `counts` by `variant`. Error(unsupported)
  // "<id> does not count <dtype> samples" unless the variant claims the samples' dtype, and
  // "<id> counts at most <max> bins" past its max_bins; Error(usage) unless `counts` is a
  // distinct array of levels.bins counters of the levels' width (u32 or u64), and where
  // check_histogram_desc refuses the desc. `count_on_device`: the histogrammer gives its library
  // the samples' count in a device word (the indirect call) instead of on the host.
  static HistogramRequest make(const VariantInfo& variant, DeviceArray& samples,
                               DeviceArray& counts, const HistogramLevels& levels,
                               bool count_on_device = false);

  DeviceArray& samples() const { return *samples_; }
  DeviceArray& counts() const { return *counts_; }
  const HistogramDesc& desc() const { return desc_; }
  const HistogramLevels& levels() const { return desc_.levels; }
  std::size_t count() const { return static_cast<std::size_t>(desc_.count); }
  bool count_on_device() const { return count_on_device_; }
  // Error(usage) unless the request was made for `variant` (a Histogrammer's first check).
  void check_made_for(const VariantInfo& variant) const;

 private:
  HistogramRequest(DeviceArray& samples, DeviceArray& counts, HistogramDesc desc,
                   bool count_on_device)
      : samples_(&samples),
        counts_(&counts),
        desc_(std::move(desc)),
        count_on_device_(count_on_device) {}

  DeviceArray* samples_;
  DeviceArray* counts_;
  HistogramDesc desc_;
  bool count_on_device_ = false;
};

// The dtype of a histogram's counters: u32 or u64.
inline DType counts_dtype(HistogramCounts c) {
  return c == HistogramCounts::u64 ? DType::u64 : DType::u32;
}

}  // namespace xr
