#include "vk_scan_plan.hpp"

#include <algorithm>

#include "xreduce/error.hpp"

namespace xr::vulkan {
namespace {

// The look-back's mode (specialization constant 4 of scan_lookback.comp): the window in the low
// bits, plain loads as bit 4.
std::uint32_t look_back_mode(const LookBackPolicy& policy) {
  return policy.window | (policy.plain_loads ? 16u : 0u);
}

// Whether the look-back's pauses count subgroup-clock cycles.
bool look_back_clock(const LookBackPolicy& policy, const DeviceFacts& f) {
  if (policy.clock == LookBackClock::on && !f.shader_clock)
    throw Error(ErrorCategory::unsupported,
                "XR_VK_LOOKBACK_CLOCK=1 needs VK_KHR_shader_clock's shaderSubgroupClock, which "
                "this device lacks");
  return policy.clock == LookBackClock::on ||
         (policy.clock == LookBackClock::automatic && f.shader_clock);
}

// The look-back pass: every dispatched workgroup draws a ticket (a 2-D grid dispatches more than
// the tiles), its pauses in clock cycles where the device counts them. Without the clock the
// policy's cycles would be integer steps, measured to gain nothing: only an explicit
// XR_VK_LOOKBACK_CLOCK=0 with a back-off asks for those.
void translate_look_back(ScanDispatch& d, const ScanPlan& plan, DType t,
                         const LookBackPolicy& policy, const DeviceFacts& f) {
  const bool clock = look_back_clock(policy, f);
  if (clock) d.shader = "scan_lookback_clock";
  const std::uint32_t backoff =
      clock || policy.clock == LookBackClock::off ? policy.tile_of(t).backoff : 0;
  d.backoff = plan.tiles >= policy.pause_tiles ? backoff : 0;
  d.mode = look_back_mode(policy);
  d.push.groups = d.grid.x * d.grid.y;
  if (policy.no_wait) d.push.flags |= kScanNoWait;
}

ScanDispatch translate(const ScanPassPlan& p, const ScanSpec& spec, const DeviceFacts& f) {
  return {.shader = p.stage == ScanStage::wide_tile ? spec.wide_shader : p.kernel,
          .workgroup = p.threads,
          .unroll = p.items,
          .roles = p.buffers,
          .push = p.args,
          .grid = grid_for(p.args.groups, f, spec.id()),
          .reads_accumulators = p.reads_accumulators(),
          .takes_kind = p.takes_kind};
}

}  // namespace

ScanPlanOptions scan_plan_options(const LookBackPolicy& policy, const DeviceFacts& f, DType t) {
  return {.look_back = policy.tile_of(t).shape,
          .polls = policy.polls,
          .one_group_max = policy.one_group_max,
          .max_threads = std::min(f.limits.maxComputeWorkGroupInvocations,
                                  f.limits.maxComputeWorkGroupSize[0])};
}

ScanDispatches scan_dispatches(const ScanSpec& spec, const DeviceFacts& f, std::uint64_t n, DType t,
                               const LookBackPolicy& lookback) {
  const ScanPlan plan = plan_scan(spec.schedule, n, t, scan_plan_options(lookback, f, t));
  ScanDispatches out{.passes = {},
                     .scratch_bytes = plan.scratch_bytes,
                     .fallbacks_at = plan.fallbacks_at,
                     .tiles = plan.tiles};
  for (const ScanPassPlan& p : plan.passes) {
    ScanDispatch d = translate(p, spec, f);
    if (p.stage == ScanStage::look_back) translate_look_back(d, plan, t, lookback, f);
    out.passes.push_back(d);
  }
  return out;
}

}  // namespace xr::vulkan
