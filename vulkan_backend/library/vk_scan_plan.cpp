#include "vk_scan_plan.hpp"

#include <algorithm>
#include <bit>

#include "vk_reduce_table.hpp"
#include "xreduce/error.hpp"
#include "xreduce/shapes.hpp"

namespace xr::vulkan {
namespace {

// fast/reduce-then-scan: pass 1 folds with 4 vector loads in flight (fast/vectorized's shape);
// pass 2 is one workgroup of up to 1024 invocations over at most kGridGroups partials; pass 3
// runs at most kGridGroups workgroups, each over a contiguous chunk of whole tiles.
constexpr std::uint32_t kReduceUnroll = 4;
constexpr std::uint32_t kPartialsWorkgroup = 1024;

// The largest power-of-two workgroup of at most `want` invocations the device allows.
std::uint32_t fit_workgroup(std::uint32_t want, const DeviceFacts& f) {
  const std::uint32_t limit =
      std::min(f.limits.maxComputeWorkGroupInvocations, f.limits.maxComputeWorkGroupSize[0]);
  while (want > limit) want /= 2;
  return want;
}

ScanPass pass(const ScanSpec& spec, std::string_view shader, ScanOperands operands,
              PushConstants push, const DeviceFacts& f, bool takes_kind) {
  return {.shader = shader,
          .workgroup = spec.workgroup,
          .unroll = spec.items,
          .operands = operands,
          .push = push,
          .grid = grid_for(push.groups, f, spec.id),
          .takes_kind = takes_kind};
}

// Up: level 0 scans the input tile by tile into the output (or, wide, into float accumulators
// in scratch) and writes the tile totals; level k scans level k-1's totals (exclusively).
void add_tiled_levels(ScanPlan& plan, const ScanSpec& spec, const DeviceFacts& f,
                      const TiledScanLayout& layout, std::uint32_t tile, std::size_t acc_bytes) {
  const auto at = [&](std::uint64_t bytes) {
    return static_cast<std::uint32_t>(bytes / acc_bytes);
  };
  const std::size_t levels = layout.levels();
  for (std::size_t level = 0; level < levels; ++level) {
    const bool totals = level + 1 < levels;
    PushConstants push{layout.counts[level], level ? at(layout.totals[level - 1]) : 0,
                       level ? at(layout.scanned[level - 1]) : 0,
                       ceil_div(layout.counts[level], tile)};
    push.aux_offset = totals ? at(layout.totals[level]) : 0;
    push.flags = (level ? kExclusiveFlag : 0) | (totals ? kWriteTotals : 0);
    ScanOperands operands = level ? scratch_operands : io_operands;
    const bool wide = level == 0 && layout.wide;
    if (wide) {
      operands = wide_operands;
      push.out_offset = at(*layout.wide);
    }
    plan.passes.push_back(
        pass(spec, wide ? spec.wide_shader : spec.shader, operands, push, f, level == 0));
  }
}

// Down: each level below the top gets its tiles' prefixes added, from the top down to the
// output; a wide scan's last add takes every tile from the floats and rounds it once.
void add_uniform_adds(ScanPlan& plan, const ScanSpec& spec, const DeviceFacts& f,
                      const TiledScanLayout& layout, std::uint32_t tile, std::size_t acc_bytes) {
  const auto at = [&](std::uint64_t bytes) {
    return static_cast<std::uint32_t>(bytes / acc_bytes);
  };
  for (std::size_t level = layout.levels() - 1; level >= 1; --level) {
    PushConstants push{layout.counts[level - 1], 0, level > 1 ? at(layout.scanned[level - 2]) : 0,
                       static_cast<std::uint32_t>(layout.counts[level] - 1)};
    push.aux_offset = at(layout.scanned[level - 1]);
    push.param = tile;
    if (level == 1 && layout.wide) {
      push.in_offset = at(*layout.wide);
      push.groups = static_cast<std::uint32_t>(layout.counts[level]);
      push.flags = kFromWide;
    }
    plan.passes.push_back(
        pass(spec, "scan_uniform_add", level > 1 ? scratch_operands : io_operands, push, f, false));
  }
}

// Core's tiled layout, with regions aligned to one vector of accumulators.
ScanPlan plan_tiled(const ScanSpec& spec, const DeviceFacts& f, std::uint64_t n,
                    std::size_t acc_bytes, bool wide_outputs) {
  const std::uint32_t tile = spec.workgroup * spec.items;
  const TiledScanLayout layout = tiled_scan_layout(n, tile, acc_bytes, wide_outputs, 4 * acc_bytes);
  ScanPlan plan;
  plan.scratch_bytes = std::max<std::uint64_t>(16, layout.scratch_bytes);
  add_tiled_levels(plan, spec, f, layout, tile, acc_bytes);
  add_uniform_adds(plan, spec, f, layout, tile, acc_bytes);
  return plan;
}

// The tree (n elements) in scratch: built from the input in-block, then above the block (one
// pass per level, or one workgroup for every level), then queried into the output.
ScanPlan plan_bit(const ScanSpec& spec, const DeviceFacts& f, std::uint64_t n,
                  std::size_t acc_bytes) {
  ScanPlan plan;
  plan.scratch_bytes = std::max<std::uint64_t>(16, std::uint64_t{n} * acc_bytes);
  const PushConstants all{n, 0, 0, ceil_div(n, spec.workgroup)};
  plan.passes.push_back(pass(spec, spec.shader, io_operands, all, f, false));
  const std::uint64_t above_block = 2 * std::uint64_t{spec.workgroup};
  if (spec.levels == "bit_build_level") {
    for (std::uint64_t idx = above_block; idx <= n; idx *= 2) {
      PushConstants level = all;
      // The level as an exponent: levels from 2^32 up would not fit a 32-bit value.
      level.param = static_cast<std::uint32_t>(std::countr_zero(idx));
      plan.passes.push_back(pass(spec, spec.levels, io_operands, level, f, false));
    }
  } else if (above_block <= n) {
    PushConstants one{n, 0, 0, 1};
    one.param = static_cast<std::uint32_t>(above_block);
    plan.passes.push_back(pass(spec, spec.levels, io_operands, one, f, false));
  }
  plan.passes.push_back(pass(spec, spec.query, io_operands, all, f, true));
  return plan;
}

// At most kGridGroups workgroups, each over a contiguous chunk of whole tiles: reduce the
// chunks, scan the partials in one workgroup, rescan the chunks from their prefixes. One
// workgroup covering n skips the first two passes.
ScanPlan plan_reduce_then_scan(const ScanSpec& spec, const DeviceFacts& f, std::uint64_t n,
                               DType t) {
  const std::size_t acc_bytes = size_of(accumulator_of(t));
  const std::uint32_t tile = spec.workgroup * spec.items * lane_elements(t);
  const std::uint32_t per_group = ceil_div(ceil_div(n, tile), kGridGroups);
  const std::uint32_t chunk = per_group * tile;
  const std::uint32_t groups = ceil_div(n, chunk);
  ScanPlan plan;
  plan.scratch_bytes = std::max<std::uint64_t>(16, std::uint64_t{round_up4(groups)} * acc_bytes);
  PushConstants push{n, 0, 0, groups};
  push.param = chunk;
  if (groups > 1) {
    ScanPass reduce = pass(spec, "scan_rts_reduce", io_operands, push, f, false);
    reduce.unroll = kReduceUnroll;
    plan.passes.push_back(reduce);
    ScanPass partials =
        pass(spec, "scan_rts_partials", io_operands, PushConstants{groups, 0, 0, 1}, f, false);
    partials.workgroup = fit_workgroup(kPartialsWorkgroup, f);
    plan.passes.push_back(partials);
    push.flags = kHasPrefix;
  }
  plan.passes.push_back(pass(spec, spec.shader, io_operands, push, f, true));
  return plan;
}

// Up to policy.one_group_max: one workgroup scans the array tile by tile with a running carry,
// reduce-then-scan's tile pass over a single chunk (core's kScanOneGroupMax says why).
ScanPlan plan_one_group(const DeviceFacts& f, std::uint64_t n) {
  const TileShape shape = shared_shape(Primitive::scan, "fast/reduce-then-scan");
  PushConstants push{n, 0, 0, 1};
  push.param = static_cast<std::uint32_t>(n);  // the chunk: all of it
  ScanPlan plan;
  plan.passes.push_back({.shader = "scan_rts_tiles",
                         .workgroup = shape.threads,
                         .unroll = shape.items / 4,
                         .push = push,
                         .grid = grid_for(1, f, "fast/decoupled-lookback"),
                         .takes_kind = true});
  return plan;
}

// The look-back's mode (specialization constant 4 of scan_lookback.comp): the window in the low
// bits, plain loads as bit 4.
std::uint32_t look_back_mode(const LookBackPolicy& policy) {
  return policy.window | (policy.plain_loads ? 16u : 0u);
}

// One workgroup per tile. Scratch, in 64-bit words: the status words of every tile (one, or two
// for 8-byte accumulators: scan_lookback.comp), the ticket counter, the fallback count.
ScanPlan plan_look_back(const ScanSpec& spec, const DeviceFacts& f, std::uint64_t n, DType t,
                        const LookBackPolicy& policy) {
  const std::size_t acc_bytes = size_of(accumulator_of(t));
  if (n <= policy.one_group_max) return plan_one_group(f, n);
  if (policy.clock == LookBackClock::on && !f.shader_clock)
    throw Error(ErrorCategory::unsupported,
                "XR_VK_LOOKBACK_CLOCK=1 needs VK_KHR_shader_clock's shaderSubgroupClock, which "
                "this device lacks");
  const bool clock = policy.clock == LookBackClock::on ||
                     (policy.clock == LookBackClock::automatic && f.shader_clock);
  const LookBackShape shape = policy.tile_of(t).shape;
  // Without the clock the policy's cycles would be integer steps, measured to gain nothing:
  // only an explicit XR_VK_LOOKBACK_CLOCK=0 with a back-off asks for those.
  const std::uint32_t backoff =
      clock || policy.clock == LookBackClock::off ? policy.tile_of(t).backoff : 0;
  const std::uint32_t tile = shape.workgroup * shape.vectors * lane_elements(t);
  const std::uint32_t words = acc_bytes == 8 ? 2 : 1;
  ScanPlan plan;
  plan.tiles = ceil_div(n, tile);
  const Grid grid = grid_for(plan.tiles, f, spec.id);
  PushConstants push{n, 0, 0, grid.x * grid.y};  // every dispatched workgroup draws a ticket
  push.param = plan.tiles * words;               // the ticket's word
  push.limit = policy.polls;
  if (policy.no_wait) push.flags |= kNoWait;
  plan.passes.push_back({.shader = clock ? "scan_lookback_clock" : spec.shader,
                         .workgroup = shape.workgroup,
                         .unroll = shape.vectors,
                         .backoff = plan.tiles >= policy.pause_tiles ? backoff : 0,
                         .mode = look_back_mode(policy),
                         .push = push,
                         .grid = grid,
                         .takes_kind = true});
  plan.scratch_bytes = (std::uint64_t{push.param} + 2) * 8;
  plan.fallbacks_at = (std::uint64_t{push.param} + 1) * 8;
  return plan;
}

}  // namespace

std::uint32_t lane_elements(DType t) {
  return size_of(t) == 2 ? 8 : 4;
}

ScanPlan plan_scan(const ScanSpec& spec, const DeviceFacts& f, std::uint64_t n, DType t,
                   const LookBackPolicy& lookback) {
  const std::size_t acc_bytes = size_of(accumulator_of(t));
  switch (spec.family) {
    case ScanFamily::tiled:
      return plan_tiled(spec, f, n, acc_bytes, accumulator_of(t) != t);
    case ScanFamily::bit:
      return plan_bit(spec, f, n, acc_bytes);
    case ScanFamily::reduce_then_scan:
      return plan_reduce_then_scan(spec, f, n, t);
    case ScanFamily::look_back:
      return plan_look_back(spec, f, n, t, lookback);
  }
  throw Error(ErrorCategory::usage, "vulkan: unknown scan family");
}

}  // namespace xr::vulkan
