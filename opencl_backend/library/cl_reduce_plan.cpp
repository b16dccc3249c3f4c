#include "cl_reduce_plan.hpp"

#include <algorithm>

#include "xreduce/shapes.hpp"

namespace xr::opencl {

ReducePlan plan_reduce(const ReduceSpec& spec, std::uint64_t n, DType dtype, Op op) {
  const DType acc = accumulator_of(dtype);
  const std::size_t acc_bytes = size_of(acc);
  const auto groups_for = [&](std::uint64_t m) -> std::uint64_t {
    std::uint64_t groups = ceil_div(m, std::uint64_t{spec.workgroup} * spec.items);
    if (spec.shape != ReduceShape::per_block)
      groups = std::min<std::uint64_t>(groups, spec.max_groups);
    return std::max<std::uint64_t>(groups, 1);
  };
  ReducePlan plan;
  auto add = [&](const ReducePass& p, bool from_input, bool to_output) {
    Pass pass;
    // Later passes read partials: the accumulator's kernel.
    pass.key = {.kernel = std::string(spec.kernel),
                .dtype = from_input ? dtype : acc,
                .op = op,
                .workgroup = spec.workgroup,
                .unroll = spec.unroll,
                .idx64 = needs_idx64(p.count)};
    pass.roles = {from_input ? Role::input : Role::scratch,
                  to_output ? Role::output : Role::scratch, Role::scratch};
    pass.groups = p.blocks;
    pass.params = {.n = p.count,
                   .in_offset = static_cast<std::uint32_t>(p.in_offset),
                   .out_offset = to_output ? 0u : static_cast<std::uint32_t>(p.out_offset),
                   .groups = static_cast<std::uint32_t>(p.blocks)};
    plan.passes.push_back(pass);
  };
  if (spec.shape == ReduceShape::single_pass) {
    // One launch: the ticket, then the partials (one work-group without partials up to the
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

}  // namespace xr::opencl
