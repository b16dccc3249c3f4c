#include "xreduce/reduce_plan.hpp"

#include <algorithm>

#include "xreduce/shapes.hpp"

namespace xr {
ReducePlan plan_reduce(const ReduceSchedule& s, std::uint64_t n, std::size_t acc_bytes,
                       std::uint64_t group_limit) {
  const auto groups_for = [&](std::uint64_t m) -> std::uint64_t {
    const std::uint64_t tile = std::uint64_t{s.threads} * s.items;
    std::uint64_t groups = (m + tile - 1) / tile;
    if (s.shape != ReduceShape::per_block)
      groups = std::min<std::uint64_t>({groups, s.max_groups, group_limit});
    return std::max<std::uint64_t>(groups, 1);
  };
  ReducePlan plan;
  const auto add = [&](const ReducePass& p, bool from_input, bool to_output) {
    plan.passes.push_back({from_input,
                           to_output,
                           {.n = p.count,
                            .in_offset = static_cast<std::uint32_t>(p.in_offset),
                            .out_offset = to_output ? 0u : static_cast<std::uint32_t>(p.out_offset),
                            .groups = static_cast<std::uint32_t>(p.blocks)}});
  };
  if (s.shape == ReduceShape::single_pass) {
    // One launch: the ticket, then the partials (one block without partials up to the shared
    // one-block limit).
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

}  // namespace xr
