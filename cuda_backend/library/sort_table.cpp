#include "sort_table.hpp"

namespace xr::cuda {
namespace {

constexpr sort::Spec kTable[] = {
    {.id = "bitonic/smem",
     .kernel = sort::Kernel::bitonic_smem,
     .max_count = std::uint64_t{1} << 31,
     .count_limit = "its items hold a key's input position in 32 bits"},
    {.id = "radix/reduce-then-scan",
     .kernel = sort::Kernel::radix_reduce_then_scan,
     .min_cc = 70,
     .requirement = "sm_70 (__match_any_sync)"},
    {.id = "radix/onesweep",
     .kernel = sort::Kernel::radix_onesweep,
     .min_cc = 70,
     .requirement = "sm_70 (__match_any_sync)"},
    {.id = "lib/cub", .kernel = sort::Kernel::lib_cub},
};

}  // namespace

std::span<const sort::Spec> sort_table() {
  return kTable;
}

const sort::Spec* find_sort(std::string_view id) {
  for (const sort::Spec& e : kTable)
    if (e.id == id) return &e;
  return nullptr;
}

std::string sort_unsupported_reason(const sort::Spec& e, const DeviceLimits& limits) {
  const int cc = limits.cc_major * 10 + limits.cc_minor;
  if (cc < e.min_cc)
    return "needs " + std::string(e.requirement) + "; this device is sm_" + std::to_string(cc);
  return {};
}

std::string sort_count_reason(const sort::Spec& e, std::uint64_t count) {
  if (count > e.max_count)
    return "sorts at most " + std::to_string(e.max_count) + " keys (" + std::string(e.count_limit) +
           "), not " + std::to_string(count);
  return {};
}

}  // namespace xr::cuda
