#include "vk_reduce_plan.hpp"

namespace xr::vulkan {

ReduceDispatches reduce_dispatches(const ReduceSpec& spec, const DeviceFacts& f, std::uint64_t n,
                                   std::size_t acc_bytes) {
  const ReducePlan plan =
      plan_reduce(spec.schedule, n, acc_bytes, f.limits.maxComputeWorkGroupCount[0]);
  ReduceDispatches out;
  out.scratch_bytes = plan.scratch_bytes;
  for (const ReducePassPlan& p : plan.passes)
    out.passes.push_back({p, grid_for(p.args.groups, f, spec.id())});
  return out;
}

}  // namespace xr::vulkan
