#include "vk_reduce_plan.hpp"

#include <algorithm>

#include "xreduce/shapes.hpp"

namespace xr::vulkan {

ReducePlan plan_reduce(const ReduceSpec& spec, const DeviceFacts& f, std::uint64_t n,
                       std::size_t acc_bytes) {
  const auto groups_for = [&](std::uint64_t m) -> std::uint64_t {
    std::uint64_t groups = ceil_div(m, std::uint64_t{spec.workgroup} * spec.items);
    if (spec.shape != ReduceShape::per_block)
      groups =
          std::min<std::uint64_t>({groups, spec.max_groups, f.limits.maxComputeWorkGroupCount[0]});
    return groups;
  };
  ReducePlan plan;
  auto add = [&](const ReducePass& p, bool from_input, bool to_output) {
    const auto groups = static_cast<std::uint32_t>(p.blocks);
    const auto out_offset = to_output ? 0u : static_cast<std::uint32_t>(p.out_offset);
    plan.passes.push_back({from_input,
                           to_output,
                           {p.count, static_cast<std::uint32_t>(p.in_offset), out_offset, groups},
                           grid_for(groups, f, spec.id)});
  };
  if (spec.shape == ReduceShape::single_pass) {
    // One dispatch: the ticket, then the partials (one workgroup without partials up to the
    // shared one-block limit).
    const std::uint64_t groups = n <= kSinglePassOneBlockMax ? 1 : groups_for(n);
    add({n, 0, 0, groups}, true, true);
    plan.scratch_bytes =
        16 + std::uint64_t{round_up4(static_cast<std::uint32_t>(groups))} * acc_bytes;
    return plan;
  }
  const std::vector<ReducePass> passes = reduce_passes(n, 4, groups_for);
  for (std::size_t i = 0; i < passes.size(); ++i) add(passes[i], i == 0, i + 1 == passes.size());
  plan.scratch_bytes = std::max<std::uint64_t>(16, scratch_elements(passes, 4) * acc_bytes);
  return plan;
}

}  // namespace xr::vulkan
