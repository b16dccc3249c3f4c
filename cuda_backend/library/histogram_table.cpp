#include "histogram_table.hpp"

namespace xr::cuda {
namespace {

constexpr histogram::Spec kTable[] = {
    {.id = "atomic/global", .kernel = histogram::Kernel::atomic_global},
    {.id = "atomic/privatized", .kernel = histogram::Kernel::atomic_privatized},
    {.id = "atomic/coarsened", .kernel = histogram::Kernel::atomic_coarsened},
    {.id = "atomic/aggregated", .kernel = histogram::Kernel::atomic_aggregated},
    {.id = "subgroup/aggregated",
     .kernel = histogram::Kernel::subgroup_aggregated,
     .min_cc = 70,
     .requirement = "sm_70 (__match_any_sync)"},
    {.id = "fast/replicated", .kernel = histogram::Kernel::fast_replicated},
    {.id = "lib/cub", .kernel = histogram::Kernel::lib_cub},
};

}  // namespace

std::span<const histogram::Spec> histogram_table() {
  return kTable;
}

const histogram::Spec* find_histogram(std::string_view id) {
  for (const histogram::Spec& e : kTable)
    if (e.id == id) return &e;
  return nullptr;
}

std::string histogram_unsupported_reason(const histogram::Spec& e, const DeviceLimits& limits) {
  const int cc = limits.cc_major * 10 + limits.cc_minor;
  if (cc < e.min_cc)
    return "needs " + std::string(e.requirement) + "; this device is sm_" + std::to_string(cc);
  return {};
}

std::string histogram_bins_reason(const histogram::Spec& e, std::uint32_t bins) {
  if (bins > e.max_bins)
    return "counts at most " + std::to_string(e.max_bins) + " bins, not " + std::to_string(bins);
  return {};
}

}  // namespace xr::cuda
