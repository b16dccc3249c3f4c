#include "cl_reduce_plan.hpp"

namespace xr::opencl {

Launches reduce_launches(const ReduceSpec& spec, std::uint64_t n, DType dtype, Op op) {
  const DType acc = accumulator_of(dtype);
  const ReducePlan plan = plan_reduce(spec.schedule, n, size_of(acc));
  Launches out;
  out.scratch_bytes = plan.scratch_bytes;
  for (const ReducePassPlan& p : plan.passes)
    // Later passes read partials: the accumulator's kernel.
    out.passes.push_back({.key = {.kernel = std::string(spec.program),
                                  .dtype = p.from_input ? dtype : acc,
                                  .op = op,
                                  .workgroup = spec.schedule.threads,
                                  .unroll = spec.schedule.unroll,
                                  .idx64 = needs_idx64(p.args.n)},
                          .roles = p.buffers(),
                          .params = p.args,
                          .groups = p.args.groups});
  return out;
}

}  // namespace xr::opencl
