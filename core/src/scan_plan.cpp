#include "xreduce/scan_plan.hpp"

#include <algorithm>
#include <bit>

#include "xreduce/error.hpp"
#include "xreduce/reduce_plan.hpp"
#include "xreduce/shapes.hpp"

namespace xr {
namespace {

// fast/reduce-then-scan: pass 1 folds with 4 vector loads in flight (fast/vectorized's shape);
// pass 2 is one block of up to 1024 threads over at most kGridGroups partials; pass 3 runs at
// most kGridGroups blocks, each over a contiguous chunk of whole tiles.
constexpr std::uint32_t kReduceUnroll = 4;
constexpr std::uint32_t kPartialsThreads = 1024;

ScanPassPlan pass(ScanStage stage, std::string_view kernel, std::uint32_t threads,
                  std::uint32_t items, PassBuffers buffers, PassArgs args,
                  bool takes_kind = false) {
  return {.stage = stage,
          .kernel = kernel,
          .threads = threads,
          .items = items,
          .buffers = buffers,
          .args = args,
          .takes_kind = takes_kind};
}

// Up: level 0 scans the input tile by tile into the output (or, wide, into float accumulators
// in scratch) and writes the tile totals; level k scans level k-1's totals (exclusively).
void add_tiled_levels(ScanPlan& plan, const ScanSchedule& s, const TiledScanLayout& layout,
                      std::uint32_t tile, std::size_t acc_bytes) {
  const auto at = [&](std::uint64_t bytes) {
    return static_cast<std::uint32_t>(bytes / acc_bytes);
  };
  const std::size_t levels = layout.levels();
  for (std::size_t level = 0; level < levels; ++level) {
    const bool totals = level + 1 < levels;
    PassArgs args{.n = layout.counts[level],
                  .in_offset = level ? at(layout.totals[level - 1]) : 0,
                  .out_offset = level ? at(layout.scanned[level - 1]) : 0,
                  .groups = ceil_div32(layout.counts[level], tile)};
    args.aux_offset = totals ? at(layout.totals[level]) : 0;
    args.flags = (level ? kScanExclusive : 0) | (totals ? kScanWriteTotals : 0);
    const bool wide = level == 0 && layout.wide;
    PassBuffers buffers = level ? kScratchBuffers : kIoBuffers;
    if (wide) {
      buffers = kWideBuffers;
      args.out_offset = at(*layout.wide);
    }
    plan.passes.push_back(pass(wide ? ScanStage::wide_tile : ScanStage::tile, s.kernel, s.threads,
                               s.items, buffers, args, level == 0));
  }
}

// Down: each level below the top gets its tiles' prefixes added, from the top down to the
// output; a wide scan's last add takes every tile from the floats and rounds it once.
void add_uniform_adds(ScanPlan& plan, const ScanSchedule& s, const TiledScanLayout& layout,
                      std::uint32_t tile, std::size_t acc_bytes) {
  const auto at = [&](std::uint64_t bytes) {
    return static_cast<std::uint32_t>(bytes / acc_bytes);
  };
  for (std::size_t level = layout.levels() - 1; level >= 1; --level) {
    PassArgs args{.n = layout.counts[level - 1],
                  .in_offset = 0,
                  .out_offset = level > 1 ? at(layout.scanned[level - 2]) : 0,
                  .groups = static_cast<std::uint32_t>(layout.counts[level] - 1)};
    args.aux_offset = at(layout.scanned[level - 1]);
    args.param = tile;
    if (level == 1 && layout.wide) {
      args.in_offset = at(*layout.wide);
      args.groups = static_cast<std::uint32_t>(layout.counts[level]);
      args.flags = kScanFromWide;
    }
    plan.passes.push_back(pass(ScanStage::uniform_add, "scan_uniform_add", s.threads, s.items,
                               level > 1 ? kScratchBuffers : kIoBuffers, args));
  }
}

// Core's tiled layout, with regions aligned to one vector of accumulators.
ScanPlan plan_tiled(const ScanSchedule& s, std::uint64_t n, DType t) {
  const std::size_t acc_bytes = size_of(accumulator_of(t));
  const std::uint32_t tile = s.threads * s.items;
  const TiledScanLayout layout =
      tiled_scan_layout(n, tile, acc_bytes, accumulator_of(t) != t, 4 * acc_bytes);
  ScanPlan plan;
  plan.scratch_bytes = std::max<std::uint64_t>(16, layout.scratch_bytes);
  add_tiled_levels(plan, s, layout, tile, acc_bytes);
  add_uniform_adds(plan, s, layout, tile, acc_bytes);
  return plan;
}

// The tree (n accumulators) in scratch: built from the input in-block, then above the block
// (one pass per level, or one block for every level), then queried into the output.
ScanPlan plan_bit(const ScanSchedule& s, std::uint64_t n, DType t) {
  ScanPlan plan;
  plan.scratch_bytes = std::max<std::uint64_t>(16, n * size_of(accumulator_of(t)));
  const PassArgs all{.n = n, .groups = ceil_div32(n, s.threads)};
  plan.passes.push_back(pass(ScanStage::bit_build, s.kernel, s.threads, 1, kIoBuffers, all));
  const std::uint64_t above_block = 2 * std::uint64_t{s.threads};
  if (s.bit_levels == BitLevels::per_level) {
    for (std::uint64_t idx = above_block; idx <= n; idx *= 2) {
      PassArgs level = all;
      // The level as an exponent: levels from 2^32 up would not fit a 32-bit value.
      level.param = static_cast<std::uint32_t>(std::countr_zero(idx));
      plan.passes.push_back(pass(ScanStage::bit_levels, s.levels, s.threads, 1, kIoBuffers, level));
    }
  } else if (above_block <= n) {
    PassArgs one{.n = n, .groups = 1};
    one.param = static_cast<std::uint32_t>(above_block);
    plan.passes.push_back(pass(ScanStage::bit_levels, s.levels, s.threads, 1, kIoBuffers, one));
  }
  plan.passes.push_back(pass(ScanStage::bit_query, s.query, s.threads, 1, kIoBuffers, all, true));
  return plan;
}

// At most kGridGroups blocks, each over a contiguous chunk of whole tiles: reduce the chunks, scan
// the partials in one block, rescan the chunks from their prefixes. One block covering n skips
// the first two passes.
ScanPlan plan_reduce_then_scan(const ScanSchedule& s, std::uint64_t n, DType t,
                               std::uint32_t max_threads) {
  const std::size_t acc_bytes = size_of(accumulator_of(t));
  const std::uint32_t tile = s.threads * s.items * lane_elements(t);
  const std::uint32_t per_group = ceil_div32(ceil_div32(n, tile), kGridGroups);
  const std::uint32_t chunk = per_group * tile;
  const std::uint32_t groups = ceil_div32(n, chunk);
  ScanPlan plan;
  plan.scratch_bytes = std::max<std::uint64_t>(16, std::uint64_t{round_up4(groups)} * acc_bytes);
  PassArgs args{.n = n, .groups = groups};
  args.param = chunk;
  if (groups > 1) {
    plan.passes.push_back(
        pass(ScanStage::rts_reduce, "scan_rts_reduce", s.threads, kReduceUnroll, kIoBuffers, args));
    std::uint32_t threads = kPartialsThreads;
    while (threads > max_threads) threads /= 2;
    plan.passes.push_back(pass(ScanStage::rts_partials, "scan_rts_partials", threads, 1, kIoBuffers,
                               PassArgs{.n = groups, .groups = 1}));
    args.flags = kScanHasPrefix;
  }
  plan.passes.push_back(
      pass(ScanStage::rts_tiles, s.kernel, s.threads, s.items, kIoBuffers, args, true));
  return plan;
}

// Up to options.one_group_max: one block scans the array tile by tile with a running carry,
// reduce-then-scan's tile pass over a single chunk (core's kScanOneGroupMax says why).
ScanPlan plan_one_group(std::uint64_t n) {
  constexpr ScanSchedule rts = scan_schedule("fast/reduce-then-scan");
  PassArgs args{.n = n, .groups = 1};
  args.param = static_cast<std::uint32_t>(n);  // the chunk: all of it
  ScanPlan plan;
  plan.passes.push_back(
      pass(ScanStage::rts_tiles, rts.kernel, rts.threads, rts.items, kIoBuffers, args, true));
  return plan;
}

// One block per tile. Scratch, in 64-bit words: the status words of every tile (one, or two for
// 8-byte accumulators), the ticket counter, the fallback count; zeroed before the call.
ScanPlan plan_look_back(const ScanSchedule& s, std::uint64_t n, DType t, const ScanPlanOptions& o) {
  // The one-group pass takes its chunk (n) as a 32-bit argument.
  if (n <= o.one_group_max && n < (std::uint64_t{1} << 32)) return plan_one_group(n);
  const LookBackShape shape = o.look_back;
  const std::uint32_t tile = shape.workgroup * shape.vectors * lane_elements(t);
  const std::uint32_t words = size_of(accumulator_of(t)) == 8 ? 2 : 1;
  ScanPlan plan;
  plan.tiles = ceil_div32(n, tile);
  PassArgs args{.n = n, .groups = plan.tiles};
  args.param = plan.tiles * words;  // the ticket's word
  args.limit = o.polls;
  plan.passes.push_back(
      pass(ScanStage::look_back, s.kernel, shape.workgroup, shape.vectors, kIoBuffers, args, true));
  plan.scratch_bytes = (std::uint64_t{args.param} + 2) * 8;
  plan.fallbacks_at = (std::uint64_t{args.param} + 1) * 8;
  plan.zero_scratch = true;
  return plan;
}

}  // namespace

std::uint32_t lane_elements(DType t) {
  return size_of(t) == 2 ? 8 : 4;
}

ScanPlan plan_scan(const ScanSchedule& s, std::uint64_t n, DType t, const ScanPlanOptions& o) {
  switch (s.family) {
    case ScanFamily::tiled:
      return plan_tiled(s, n, t);
    case ScanFamily::bit:
      return plan_bit(s, n, t);
    case ScanFamily::reduce_then_scan:
      return plan_reduce_then_scan(s, n, t, o.max_threads);
    case ScanFamily::look_back:
      return plan_look_back(s, n, t, o);
  }
  throw Error(ErrorCategory::usage, "unknown scan family");
}

}  // namespace xr
