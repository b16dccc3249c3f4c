// The switch from a sort::Kernel to its family's planner, launcher and policy.
#include "sort_dispatch.hpp"

#include <string>

#include "xreduce/sort_passes.hpp"

namespace xr::cuda {

Policy sort_policy(sort::Kernel k, const DeviceLimits& dev) {
  switch (k) {
    case sort::Kernel::bitonic_smem:
      return detail::policy_sort_bitonic(dev);
    case sort::Kernel::radix_reduce_then_scan:
      return detail::policy_sort_radix(dev);
    case sort::Kernel::radix_onesweep:
      return detail::policy_sort_onesweep(dev);
    case sort::Kernel::lib_cub:
      return {0, 0, 0, 0, "CUB's own tuning policies"};
  }
  return {};
}

sort::Plan make_sort_plan(sort::Kernel k, const SortDesc& desc, const DeviceLimits& dev,
                          const sort::Tuning& tuning) {
  sort::Plan plan;
  plan.kernel = k;
  plan.desc = desc;
  switch (k) {
    case sort::Kernel::bitonic_smem:
      detail::plan_sort_bitonic(plan, dev);
      break;
    case sort::Kernel::radix_reduce_then_scan:
      detail::plan_sort_radix(plan, dev);
      break;
    case sort::Kernel::radix_onesweep:
      detail::plan_sort_onesweep(plan, dev);
      break;
    case sort::Kernel::lib_cub:
      detail::plan_sort_cub(plan, dev, tuning);
      break;
  }
  if (plan.tuning.empty()) plan.tuning = sort_policy(k, dev).to_string();
  return plan;
}

std::string sort_counted_reason(const sort::Plan& plan) {
  if (plan.kernel == sort::Kernel::lib_cub)
    return "takes its count from the host (cub::DeviceRadixSort has no count on the device)";
  if (sort_needs_wide(plan.desc.count))
    return "takes a 32-bit count on the device, for at most " + std::to_string(kSortNarrowMaxKeys) +
           " keys";
  if (plan.kernel == sort::Kernel::radix_onesweep &&
      plan.desc.count > detail::onesweep_counted_max_keys(plan))
    return "takes a count on the device for at most " +
           std::to_string(detail::onesweep_counted_max_keys(plan)) + " keys (one launch a digit)";
  return {};
}

void enqueue_sort(const sort::Plan& plan, const sort::Call& call, const sort::Buffers& bufs,
                  cudaStream_t stream) {
  if (call.count)
    if (const std::string why = sort_counted_reason(plan); !why.empty())
      throw Error(ErrorCategory::unsupported, "xreduce::cuda: " + why);
  switch (plan.kernel) {
    case sort::Kernel::bitonic_smem:
      return detail::enqueue_sort_bitonic(plan, call, bufs, stream);
    case sort::Kernel::radix_reduce_then_scan:
      return detail::enqueue_sort_radix(plan, call, bufs, stream);
    case sort::Kernel::radix_onesweep:
      return detail::enqueue_sort_onesweep(plan, call, bufs, stream);
    case sort::Kernel::lib_cub:
      return detail::enqueue_sort_cub(plan, call.n, bufs, stream);
  }
}

std::string sort::Plan::describe() const {
  const SortDesc& p = desc;
  std::string s = std::to_string(p.count) + " " + std::string(to_string(p.dtype)) + " keys" +
                  (p.pairs() ? " with " + std::string(to_string(p.values)) + " values" : "") +
                  ", " + std::string(to_string(p.order)) + ", bits " + to_string(p.bits, p.dtype);
  if (passes) s += ", " + std::to_string(passes) + " passes";
  if (grid) s += ", " + std::to_string(grid) + "x" + std::to_string(block);
  if (tile) s += ", tiles of " + std::to_string(tile);
  if (tiles) s += " (" + std::to_string(tiles) + ")";
  s += ", temp " + std::to_string(temp_bytes) + " B";
  if (!note.empty()) s += "; " + note;
  return s;
}

}  // namespace xr::cuda
