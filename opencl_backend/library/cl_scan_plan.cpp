#include "cl_scan_plan.hpp"

#include <algorithm>
#include <bit>

#include "cl_reduce_table.hpp"
#include "xreduce/error.hpp"
#include "xreduce/shapes.hpp"

namespace xr::opencl {
namespace {

// fast/reduce-then-scan: pass 1 folds with 4 vector loads in flight; pass 2 is one work-group of
// up to 1024 work-items over at most kGridGroups partials; pass 3 runs at most kGridGroups
// work-groups, each over a contiguous chunk of whole tiles.
constexpr std::uint32_t kReduceUnroll = 4;
constexpr std::uint32_t kPartialsWorkgroup = 1024;

constexpr std::array<Role, 3> kIo{Role::input, Role::output, Role::scratch};
constexpr std::array<Role, 3> kScratch{Role::scratch, Role::scratch, Role::scratch};
constexpr std::array<Role, 3> kWide{Role::input, Role::scratch, Role::scratch};

// What every pass of one scan shares.
struct Call {
  DType dtype;
  Op op;
  std::uint32_t kind_flag;  // kExclusiveFlag for an exclusive scan
  bool idx64;
};

// A pass of `kernel` over `roles`. Passes over scratch alone scan accumulators; a pass whose
// destination is the output writes elements; `takes_kind` passes write the caller's output.
Pass pass(const Call& c, std::string_view kernel, std::uint32_t workgroup, std::uint32_t unroll,
          std::array<Role, 3> roles, Params params, bool takes_kind, std::string defines = {}) {
  Pass p;
  const bool on_scratch = roles[0] == Role::scratch;
  p.key = {.kernel = std::string(kernel),
           .dtype = on_scratch ? accumulator_of(c.dtype) : c.dtype,
           .op = c.op,
           .workgroup = workgroup,
           .unroll = unroll,
           .idx64 = c.idx64,
           .dst_elements = roles[1] == Role::output,
           .defines = std::move(defines)};
  p.roles = roles;
  if (takes_kind) params.flags |= c.kind_flag;
  p.params = params;
  p.groups = std::max<std::uint32_t>(params.groups, 1);
  return p;
}

// Up: level 0 scans the input tile by tile into the output (or, wide, into float accumulators
// in scratch) and writes the tile totals; level k scans level k-1's totals (exclusively).
void add_tiled_levels(ScanPlan& plan, const Call& c, const ScanSpec& spec,
                      const TiledScanLayout& layout, std::uint32_t tile, std::size_t acc_bytes) {
  const auto at = [&](std::uint64_t bytes) {
    return static_cast<std::uint32_t>(bytes / acc_bytes);
  };
  const std::size_t levels = layout.levels();
  for (std::size_t level = 0; level < levels; ++level) {
    const bool totals = level + 1 < levels;
    Params params{.n = layout.counts[level],
                  .in_offset = level ? at(layout.totals[level - 1]) : 0,
                  .out_offset = level ? at(layout.scanned[level - 1]) : 0,
                  .groups = ceil_div(layout.counts[level], tile)};
    params.aux_offset = totals ? at(layout.totals[level]) : 0;
    params.flags = (level ? kExclusiveFlag : 0) | (totals ? kWriteTotals : 0);
    std::array<Role, 3> roles = level ? kScratch : kIo;
    const bool wide = level == 0 && layout.wide;
    if (wide) {
      roles = kWide;
      params.out_offset = at(*layout.wide);
    }
    plan.passes.push_back(pass(c, spec.kernel, spec.workgroup, spec.items, roles, params,
                               level == 0, wide ? "-DXR_WIDE_DST" : ""));
  }
}

// Down: each level below the top gets its tiles' prefixes added, from the top down to the
// output; a wide scan's last add takes every tile from the floats and rounds it once.
void add_uniform_adds(ScanPlan& plan, const Call& c, const ScanSpec& spec,
                      const TiledScanLayout& layout, std::uint32_t tile, std::size_t acc_bytes) {
  const auto at = [&](std::uint64_t bytes) {
    return static_cast<std::uint32_t>(bytes / acc_bytes);
  };
  for (std::size_t level = layout.levels() - 1; level >= 1; --level) {
    Params params{.n = layout.counts[level - 1],
                  .in_offset = 0,
                  .out_offset = level > 1 ? at(layout.scanned[level - 2]) : 0,
                  .groups = static_cast<std::uint32_t>(layout.counts[level] - 1)};
    params.aux_offset = at(layout.scanned[level - 1]);
    params.param = tile;
    if (level == 1 && layout.wide) {
      params.in_offset = at(*layout.wide);
      params.groups = static_cast<std::uint32_t>(layout.counts[level]);
      params.flags = kFromWide;
    }
    Pass p = pass(c, "scan_uniform_add", spec.workgroup, spec.items, level > 1 ? kScratch : kIo,
                  params, false);
    plan.passes.push_back(p);
  }
}

ScanPlan plan_tiled(const Call& c, const ScanSpec& spec, std::uint64_t n) {
  const std::size_t acc_bytes = size_of(accumulator_of(c.dtype));
  const std::uint32_t tile = spec.workgroup * spec.items;
  const TiledScanLayout layout =
      tiled_scan_layout(n, tile, acc_bytes, accumulator_of(c.dtype) != c.dtype, 4 * acc_bytes);
  ScanPlan plan;
  plan.scratch_bytes = std::max<std::uint64_t>(16, layout.scratch_bytes);
  add_tiled_levels(plan, c, spec, layout, tile, acc_bytes);
  add_uniform_adds(plan, c, spec, layout, tile, acc_bytes);
  return plan;
}

// The tree (n accumulators) in scratch: built from the input in-block, then above the block
// (one pass per level, or one work-group for every level), then queried into the output.
ScanPlan plan_bit(const Call& c, const ScanSpec& spec, std::uint64_t n) {
  const std::size_t acc_bytes = size_of(accumulator_of(c.dtype));
  ScanPlan plan;
  plan.scratch_bytes = std::max<std::uint64_t>(16, n * acc_bytes);
  const Params all{.n = n, .groups = ceil_div(n, spec.workgroup)};
  plan.passes.push_back(pass(c, spec.kernel, spec.workgroup, 1, kIo, all, false));
  const std::uint64_t above_block = 2 * std::uint64_t{spec.workgroup};
  if (spec.levels == "bit_build_level") {
    for (std::uint64_t idx = above_block; idx <= n; idx *= 2) {
      Params level = all;
      level.param = static_cast<std::uint32_t>(std::countr_zero(idx));  // the level's exponent
      plan.passes.push_back(pass(c, spec.levels, spec.workgroup, 1, kIo, level, false));
    }
  } else if (above_block <= n) {
    Params one{.n = n, .groups = 1};
    one.param = static_cast<std::uint32_t>(above_block);
    plan.passes.push_back(pass(c, spec.levels, spec.workgroup, 1, kIo, one, false));
  }
  plan.passes.push_back(pass(c, spec.query, spec.workgroup, 1, kIo, all, true));
  return plan;
}

// At most kGridGroups work-groups, each over a contiguous chunk of whole tiles: reduce the
// chunks, scan the partials in one work-group, rescan the chunks from their prefixes. One
// work-group covering n skips the first two passes.
ScanPlan plan_reduce_then_scan(const Call& c, const ScanSpec& spec, std::uint64_t n,
                               std::size_t max_work_group) {
  const std::size_t acc_bytes = size_of(accumulator_of(c.dtype));
  const std::uint32_t tile = spec.workgroup * spec.items * lane_elements(c.dtype);
  const std::uint32_t per_group = ceil_div(ceil_div(n, tile), kGridGroups);
  const std::uint32_t chunk = per_group * tile;
  const std::uint32_t groups = ceil_div(n, chunk);
  ScanPlan plan;
  plan.scratch_bytes = std::max<std::uint64_t>(16, std::uint64_t{round_up4(groups)} * acc_bytes);
  Params params{.n = n, .groups = groups};
  params.param = chunk;
  if (groups > 1) {
    plan.passes.push_back(
        pass(c, "scan_rts_reduce", spec.workgroup, kReduceUnroll, kIo, params, false));
    std::uint32_t workgroup = kPartialsWorkgroup;
    while (workgroup > max_work_group) workgroup /= 2;
    plan.passes.push_back(
        pass(c, "scan_rts_partials", workgroup, 1, kIo, Params{.n = groups, .groups = 1}, false));
    params.flags = kHasPrefix;
  }
  plan.passes.push_back(pass(c, spec.kernel, spec.workgroup, spec.items, kIo, params, true));
  return plan;
}

// Up to one_group_max: one work-group scans the array tile by tile with a running carry,
// reduce-then-scan's tile pass over a single chunk (core's kScanOneGroupMax says why).
ScanPlan plan_one_group(const Call& c, std::uint64_t n) {
  const TileShape shape = shared_shape(Primitive::scan, "fast/reduce-then-scan");
  Params params{.n = n, .groups = 1};
  params.param = static_cast<std::uint32_t>(n);  // the chunk: all of it
  ScanPlan plan;
  plan.passes.push_back(
      pass(c, "scan_rts_tiles", shape.threads, shape.items / 4, kIo, params, true));
  return plan;
}

// One work-group per tile. Scratch, in 64-bit words: the status words of every tile (one, or
// two for 8-byte accumulators), the ticket counter, the fallback count.
ScanPlan plan_look_back(const Call& c, const ScanSpec& spec, std::uint64_t n,
                        const LookBackPolicy& policy) {
  // The one-group pass takes its chunk (n) as a 32-bit argument.
  if (n <= policy.one_group_max && n < (std::uint64_t{1} << 32)) return plan_one_group(c, n);
  const std::size_t acc_bytes = size_of(accumulator_of(c.dtype));
  const std::uint32_t tile = policy.workgroup * policy.vectors * lane_elements(c.dtype);
  const std::uint32_t words = acc_bytes == 8 ? 2 : 1;
  const std::uint32_t tiles = ceil_div(n, tile);
  Params params{.n = n, .groups = tiles};
  params.param = tiles * words;  // the ticket's word
  params.limit = policy.polls;
  ScanPlan plan;
  plan.passes.push_back(pass(c, spec.kernel, policy.workgroup, policy.vectors, kIo, params, true));
  plan.scratch_bytes = (std::uint64_t{params.param} + 2) * 8;
  plan.fallbacks_at = (std::uint64_t{params.param} + 1) * 8;
  plan.zero_scratch = true;
  return plan;
}

}  // namespace

std::uint32_t lane_elements(DType t) {
  return size_of(t) == 2 ? 8 : 4;
}

ScanPlan plan_scan(const ScanSpec& spec, std::uint64_t n, DType t, Op op, ScanKind kind,
                   const LookBackPolicy& lookback, std::size_t max_work_group) {
  const Call c{.dtype = t,
               .op = op,
               .kind_flag = kind == ScanKind::exclusive ? kExclusiveFlag : 0u,
               .idx64 = needs_idx64(n)};
  switch (spec.family) {
    case ScanFamily::tiled:
      return plan_tiled(c, spec, n);
    case ScanFamily::bit:
      return plan_bit(c, spec, n);
    case ScanFamily::reduce_then_scan:
      return plan_reduce_then_scan(c, spec, n, max_work_group);
    case ScanFamily::look_back:
      return plan_look_back(c, spec, n, lookback);
  }
  throw Error(ErrorCategory::usage, "opencl: unknown scan family");
}

}  // namespace xr::opencl
