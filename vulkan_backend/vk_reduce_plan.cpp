#include "vk_reduce_plan.hpp"

#include <algorithm>

#include "xreduce/shapes.hpp"

namespace xr::vulkan {

ReducePlan plan_reduce(const ReduceSpec& spec, const DeviceFacts& f, std::uint64_t n) {
  const auto groups_for = [&](std::uint64_t m) -> std::uint64_t {
    std::uint64_t groups = ceil_div(m, std::uint64_t{spec.workgroup} * spec.items);
    if (spec.shape != ReduceShape::per_block)
      groups =
          std::min<std::uint64_t>({groups, spec.max_groups, f.limits.maxComputeWorkGroupCount[0]});
    return groups;
  };
  ReducePlan plan;
  auto add = [&](const ReducePass& p, bool from_input, std::uint32_t out_offset) {
    const auto groups = static_cast<std::uint32_t>(p.blocks);
    plan.passes.push_back({from_input,
                           {p.count, static_cast<std::uint32_t>(p.in_offset), out_offset, groups},
                           grid_for(groups, f, spec.id)});
  };
  if (spec.shape == ReduceShape::single_pass) {
    // One dispatch: partials at scratch[0, groups), the result after them (one workgroup without
    // partials up to the shared one-block limit).
    const std::uint64_t groups = n <= kSinglePassOneBlockMax ? 1 : groups_for(n);
    plan.result_at = round_up4(static_cast<std::uint32_t>(groups));
    add({n, 0, 0, groups}, true, plan.result_at);
    plan.scratch_elements = plan.result_at + 4;
    return plan;
  }
  const std::vector<ReducePass> passes = reduce_passes(n, 4, groups_for);
  for (std::size_t i = 0; i < passes.size(); ++i)
    add(passes[i], i == 0, static_cast<std::uint32_t>(passes[i].out_offset));
  plan.result_at = static_cast<std::uint32_t>(passes.back().out_offset);
  plan.scratch_elements = scratch_elements(passes, 4);
  return plan;
}

}  // namespace xr::vulkan
