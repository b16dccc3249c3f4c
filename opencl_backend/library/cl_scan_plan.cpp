#include "cl_scan_plan.hpp"

#include <algorithm>

namespace xr::opencl {
namespace {

// What every pass of one call shares.
struct Call {
  DType dtype;
  Op op;
  std::uint32_t kind_flag;  // kScanExclusive for an exclusive scan
  bool idx64;
};

Pass launch_of(const ScanPassPlan& p, const Call& c) {
  PassArgs args = p.args;
  if (p.takes_kind) args.flags |= c.kind_flag;
  return {.key = {.kernel = std::string(p.kernel),
                  .dtype = p.reads_accumulators() ? accumulator_of(c.dtype) : c.dtype,
                  .op = c.op,
                  .workgroup = p.threads,
                  .unroll = p.items,
                  .idx64 = c.idx64,
                  .dst_elements = p.writes_elements(),
                  .defines = p.stage == ScanStage::wide_tile ? "-DXR_WIDE_DST" : ""},
          .roles = p.buffers,
          .params = args,
          .groups = std::max<std::uint32_t>(args.groups, 1)};
}

}  // namespace

Launches scan_launches(const ScanSpec& spec, std::uint64_t n, DType t, Op op, ScanKind kind,
                       const LookBackPolicy& lookback, std::size_t max_work_group) {
  const ScanPlanOptions options{
      .look_back = lookback.shape,
      .polls = lookback.polls,
      .one_group_max = lookback.one_group_max,
      .max_threads = static_cast<std::uint32_t>(std::min<std::size_t>(max_work_group, 1024))};
  const ScanPlan plan = plan_scan(spec.schedule, n, t, options);
  const Call c{.dtype = t,
               .op = op,
               .kind_flag = kind == ScanKind::exclusive ? kScanExclusive : 0u,
               .idx64 = needs_idx64(n)};
  Launches out{.passes = {},
               .scratch_bytes = plan.scratch_bytes,
               .zero_scratch = plan.zero_scratch,
               .fallbacks_at = plan.fallbacks_at};
  for (const ScanPassPlan& p : plan.passes) out.passes.push_back(launch_of(p, c));
  return out;
}

}  // namespace xr::opencl
