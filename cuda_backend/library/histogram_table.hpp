// The CUDA histogram variants as data: id -> kernel, what it needs, how many bins it counts, in
// ladder order. The library's Histogram reads it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "device_limits.hpp"
#include "histogram_dispatch.hpp"

namespace xr::cuda {

namespace histogram {
struct Spec {
  std::string_view id;
  Kernel kernel{};
  std::uint32_t max_bins = kMaxHistogramBins;  // every variant counts core's most bins
  int min_cc = 0;                              // compute capability x 10
  std::string_view requirement = {};           // what min_cc stands for
};
}  // namespace histogram

std::span<const histogram::Spec> histogram_table();
const histogram::Spec* find_histogram(std::string_view id);
// Empty when `e` runs on the device of `limits`, else why not.
std::string histogram_unsupported_reason(const histogram::Spec& e, const DeviceLimits& limits);
// Empty when `e` counts into `bins` bins, else why not.
std::string histogram_bins_reason(const histogram::Spec& e, std::uint32_t bins);

}  // namespace xr::cuda
