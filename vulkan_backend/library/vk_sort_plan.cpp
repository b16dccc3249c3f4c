#include "vk_sort_plan.hpp"

#include <algorithm>

#include "xreduce/error.hpp"
#include "xreduce/sort_plan.hpp"
#include "xreduce/sort_tiles.hpp"

namespace xr::vulkan {
namespace {

// A digit pass's tile before the device's limits, by ranking and key width. By ballots, the tile
// the sweeps find fastest with each digit taken again from its key (the pass is latency-bound at
// one workgroup an SM, which the registers allow; docs/results/H200/sort/vulkan-registers); by
// counting, the most keys a tile (its rounds and their scans cost per tile) at the
// fewest invocations a digit pass takes, 256. The sweeps behind each row:
// docs/results/H200/tuning-notes.md.
constexpr DigitTileTuning kDigitTiles[] = {
    {"subgroup ballots",
     4,
     {512, 20},
     "H200, 2^28 u32 keys / pairs, radix/onesweep 9.29 / 11.37 ms at 512 x 19 (lib/cub 5.43 / "
     "7.44 in the same runs; 768 x 10 10.03 / 12.18 ms, reduce-then-scan slower at 512 x 19): "
     "docs/results/H200/sort/vulkan-registers"},
    {"subgroup ballots", 8, {768, 5}, "half the 32-bit keys' items; not measured"},
    {"counting",
     4,
     {256, 20},
     "H200, 2^28 u32 keys ranked by counting, radix/onesweep 20.58 ms (lib/cub 6.32), the fastest "
     "of 6 tiles from 256 x 10 to 1024 x 4"},
    {"counting", 8, {256, 10}, "half the 32-bit keys' items; not measured"},
};
// radix/reduce-then-scan's own rows where its sweeps chose another tile than onesweep's: its
// downsweep reads each key twice more and keeps the 768 invocations' latency cover; the rows it
// lacks are kDigitTiles'.
constexpr DigitTileTuning kReduceThenScanTiles[] = {
    {"subgroup ballots",
     4,
     {768, 10},
     "H200, 2^28 u32 keys / pairs, radix/reduce-then-scan 11.80 / 14.00 ms at 768 x 10, 12.43 / "
     "15.60 at 512 x 19 (lib/cub 5.43 / 7.44 in the same runs): "
     "docs/results/H200/sort/vulkan-registers"},
};
// How a sort whose count is on the device launches onesweep's digit passes: at the Sort's grids,
// the workgroups past the count's tiles returning, or over the count's tiles by
// vkCmdDispatchIndirect, a grid pass writing the grids (ScheduleOptions::device_grids). Measured
// with the count equal to the Sort's; a count far below it is not measured.
struct CountedGridsTuning {
  bool device_grids;
  std::string_view evidence;
};
constexpr CountedGridsTuning kCountedGrids{
    false,
    "H200, 1M, 16M and 2^28 u32 keys and f32 + u32 pairs, the count on the device the Sort's: "
    "the Sort's grids 0.994-1.002x the direct call, indirect dispatches 1.001-1.067x (a pass and "
    "two barriers more: docs/results/H200/sort/indirect)"};

// Shared memory beside the staged tile and the counter rows: digit_first (its indices 32- or
// 64-bit, the wide form's), the scans' totals.
constexpr std::uint32_t kTileOverheadBytes = 1024 + 256 + 64;
constexpr std::uint32_t kWideTileOverheadBytes = 2048 + 256 + 64;

// A digit pass's shared memory (shaders/sort_tile.glsl): the staged keys, a word each (two for
// 64-bit keys), and the overhead above; the ranking's counters beside them
// (shaders/sort_rank_*.glsl): by ballots a row of 256 16-bit counters a subgroup; by counting, 4
// counters and a scan word an invocation, and a word a key.
sort::TileBytes tile_bytes(sort::Ranking r, DType t, bool wide) {
  sort::TileBytes b{.fixed = wide ? kWideTileOverheadBytes : kTileOverheadBytes,
                    .per_key = size_of(t) == 8 ? 8u : 4u};
  if (r == sort::Ranking::ballots) {
    b.per_subgroup = 256 * 2;
  } else {
    b.per_thread = 5 * 4;
    b.per_key += 4;
  }
  return b;
}

std::uint32_t smallest_subgroup(const DeviceFacts& f) {
  const std::uint32_t s = f.min_subgroup_size ? f.min_subgroup_size : f.subgroup_size;
  return std::max<std::uint32_t>(s, 4);
}

sort::Limits limits_of(const DeviceFacts& f) {
  return {.shared_bytes = f.limits.maxComputeSharedMemorySize,
          .max_threads = std::min(f.limits.maxComputeWorkGroupInvocations,
                                  f.limits.maxComputeWorkGroupSize[0]),
          .subgroup = smallest_subgroup(f),
          .cpu = f.cpu(),
          .device = f.info.name.empty() ? std::string("this device") : f.info.name};
}

// A digit pass's tile: the policy's for `ranking` or the knobs', fitted to the shared memory with
// the ranking's counters (values are staged through the keys' shared memory after them, a word at
// a time, so pairs of any value take the same); the policy's invocations drop to 256 where their
// counter rows would take more than half of it (small subgroups: more rows).
const DigitTileTuning& digit_tuning(sort::Family family, sort::Ranking ranking, DType t) {
  if (family == sort::Family::reduce_then_scan)
    if (const DigitTileTuning* own = digit_tuning_row(kReduceThenScanTiles, to_string(ranking), t))
      return *own;
  return find_digit_tuning(kDigitTiles, to_string(ranking), t);
}

DigitTileRequest digit_request(sort::Family family, DType t, bool wide, sort::Ranking ranking,
                               std::optional<sort::Tile> knob) {
  const DigitTileTuning& row = digit_tuning(family, ranking, t);
  return {.wanted = knob.value_or(row.tile),
          .evidence = knob ? "the tool's XR_VK_SORT_TILE" : row.evidence,
          .bytes = tile_bytes(ranking, t, wide),
          .crowded_threads = knob ? 0u : 256u};
}

// The fewest invocations a digit tile has (its 256 counters, one an invocation) and the step of
// XR_VK_SORT_TILE's invocations.
constexpr std::uint32_t kDigitThreads = 256;
constexpr std::uint32_t kKnobThreadsStep = 32;

// XR_VK_SORT_TILE keeps its invocations (a sweep measures the tile it names) and gives up items to
// the shared memory; where not one item fits beside its invocations' counters, it is refused
// with the knob, the tile and the most invocations that hold an item each.
void require_knob_tile_fits(const sort::Limits& limits, const DigitTileRequest& digit,
                            sort::Ranking ranking) {
  const sort::TileChoice choice = fit_digit_tile(limits, digit);
  if (choice.fits()) return;
  const sort::Tile asked = digit.wanted;
  std::uint32_t most = 0;
  for (std::uint32_t t = kDigitThreads; t <= asked.threads; t += kKnobThreadsStep)
    if (digit.bytes.of({t, 1}, limits.subgroup) <= limits.shared_bytes) most = t;
  std::string line = "XR_VK_SORT_TILE=" + std::to_string(asked.threads) + "x" +
                     std::to_string(asked.items) + ": " + choice.why + ": " +
                     std::to_string(asked.threads) + " invocations ranking by " +
                     std::string(to_string(ranking)) + " leave no room for one item";
  line += most ? "; at most " + std::to_string(most) + " invocations do"
               : "; not even " + std::to_string(kDigitThreads) + " do, the fewest it takes";
  throw Error(ErrorCategory::unsupported, line);
}

// The pass's module, named as shaders/CMakeLists.txt builds it from its stage's forms
// (xreduce/sort_stages.h).
std::string module_of(const sort::Pass& p, DType t, bool by_address, sort::Ranking ranking) {
  const sort::StageForms& forms = sort_stage_forms(p.stage);
  std::string m(p.kernel);
  if (forms.keys) m += ".k" + std::to_string(8 * size_of(t));
  if (p.values != SortValues::none) m += p.values == SortValues::u64 ? ".pairs64" : ".pairs";
  if (ranking == sort::Ranking::counting && forms.ranks) m += ".count";
  if (by_address && forms.address) m += ".addr";
  return m;
}

}  // namespace

std::string_view to_string(sort::Ranking r) {
  return r == sort::Ranking::ballots ? "subgroup ballots" : "counting";
}

sort::Ranking sort_ranking(const sort::Spec& spec, const DeviceFacts& f, const sort::Knobs& knobs) {
  if (knobs.force_counting) return sort::Ranking::counting;
  return missing_reason(spec.ballot_needs, spec.threads, 0, f).empty() ? sort::Ranking::ballots
                                                                       : sort::Ranking::counting;
}

sort::ScheduleOptions sort_plan_options(const DeviceFacts& f, sort::Family family, DType t,
                                        bool wide, sort::Ranking ranking,
                                        const sort::Knobs& knobs) {
  const sort::Limits limits = limits_of(f);
  const DigitTileRequest digit = digit_request(family, t, wide, ranking, knobs.tile);
  if (knobs.tile && family != sort::Family::bitonic) require_knob_tile_fits(limits, digit, ranking);
  sort::ScheduleOptions o = xr::sort_plan_options(limits, family, t, wide, knobs.polls, digit);
  o.device_grids = knobs.device_grids.value_or(kCountedGrids.device_grids);
  if (family == sort::Family::onesweep)
    o.tuning +=
        std::string("; a count on the device: ") +
        (o.device_grids ? "indirect dispatches" : "the Sort's grids") + " (" +
        std::string(knobs.device_grids ? "the tool's XR_VK_SORT_GRIDS" : kCountedGrids.evidence) +
        ")";
  return o;
}

namespace {

// core's passes of `out.layout` into `out.passes`.
void translate(sort::Plan& out, const sort::Spec& spec, const DeviceFacts& f, DType t,
               SortOrder order) {
  const std::uint32_t mode = sort_mode(t, order);
  out.passes.clear();
  for (const sort::Pass& p : out.layout.passes)
    out.passes.push_back({.stage = p.stage,
                          .module = module_of(p, t, out.by_address, out.ranking),
                          .workgroup = p.threads,
                          .items = p.items,
                          .window = kSortLookBackWindow,
                          .sort_mode = mode,
                          .min_subgroup = smallest_subgroup(f),
                          .grid = grid_for(p.groups, f, spec.id()),
                          .by_address = out.by_address && sort_stage_forms(p.stage).address});
}

}  // namespace

sort::Plan sort_dispatches(const sort::Spec& spec, const DeviceFacts& f, std::uint64_t n, DType t,
                           SortOrder order, BitRange bits, SortValues values,
                           const sort::Knobs& knobs) {
  if (const std::string why = sort_count_refusal(spec.id(), spec.family, n); !why.empty())
    throw Error(ErrorCategory::unsupported, why);
  // By address, in core's wide form, past one binding or the narrow form's keys; never bitonic.
  const std::uint32_t binding = f.limits.maxStorageBufferRange;
  const bool by_address = sort_wide_form(spec.family, n, t, knobs.force_address, binding, values);
  const sort::Ranking ranking = sort_ranking(spec, f, knobs);
  sort::Plan out{.passes = {},
                 .by_address = by_address,
                 .ranking = ranking,
                 .layout = {},
                 .options = sort_plan_options(f, spec.family, t, by_address, ranking, knobs)};
  out.layout = plan_sort_call(spec.family, n, t, values, bits, out.options);
  if (const std::string why = sort_items_refusal(spec.id(), n, t, out.layout.items_bytes, binding);
      !why.empty())
    throw Error(ErrorCategory::unsupported, why);
  translate(out, spec, f, t, order);
  return out;
}

sort::Plan sort_counted_dispatches(const sort::Spec& spec, const DeviceFacts& f,
                                   const sort::Plan& direct, DType t, SortOrder order,
                                   BitRange bits, SortValues values) {
  sort::Plan out = direct;
  plan_counted_call(out.layout, spec.id(), spec.family, t, values, bits, out.options);
  translate(out, spec, f, t, order);
  return out;
}

}  // namespace xr::vulkan
