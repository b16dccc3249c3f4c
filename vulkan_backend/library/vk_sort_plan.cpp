#include "vk_sort_plan.hpp"

#include <algorithm>
#include <bit>

#include "xreduce/error.hpp"

namespace xr::vulkan {
namespace {

// A digit pass's tile before the device's limits (48 KiB of shared memory on NVIDIA's Vulkan).
// H200, 2^28 u32 keys / pairs uniform over every bit pattern, radix/onesweep ms (lib/cub 6.34 /
// 7.45 in the same runs), one workgroup per SM by registers (96 a thread, pairs 114): 384x20
// 12.26 / 13.04; 256x20 16.66 / 17.26; 256x28 14.92 / 15.35; 384x16 13.33 / 14.21; 512x12
// 12.35 / 13.43; 512x16 10.96 / 11.85; 768x10 9.79 / 11.89. More invocations per SM is what
// pays: the pass is latency-bound at one workgroup. 64-bit keys take half the items (unmeasured).
constexpr std::uint32_t kTileThreads = 768;
constexpr std::uint32_t kTileItems4 = 10;  // 32- and 16-bit keys
constexpr std::uint32_t kTileItems8 = 5;   // 64-bit keys
// Ranking by counting (XR_VK_SORT_RANKING=counting on an H200, 2^28 u32 keys, radix/onesweep ms,
// lib/cub 6.32): 256x10 30.28; 256x16 26.52; 256x20 20.58; 512x8 26.02; 512x10 22.74; 1024x4
// 39.64. Its four rounds and their workgroup scans cost per tile, so the most keys a tile: the
// fewest invocations a digit pass allows (256) and the items 48 KiB holds beside the counters.
// 64-bit keys take half the items (unmeasured).
constexpr std::uint32_t kCountingTileThreads = 256;
constexpr std::uint32_t kCountingTileItems4 = 20;
constexpr std::uint32_t kCountingTileItems8 = 10;
// bitonic/smem's tile: CUDA's (32 KiB of items a workgroup, 512 invocations), not yet measured in
// Vulkan; halved (items, then invocations) until the device's shared memory and workgroup take it.
constexpr SortTile kBitonicTile4{512, 8};  // 8-byte items: keys up to 32 bits
constexpr SortTile kBitonicTile8{512, 4};  // 16-byte items: 64-bit keys
// Predecessors a look-back poll reads per digit (CUDA's window).
constexpr std::uint32_t kLookBackWindow = 8;
// Shared memory beside the staged tile and the counter rows: digit_first (its indices 32- or
// 64-bit, the wide form's), the scans' totals.
constexpr std::uint32_t kTileOverheadBytes = 1024 + 256 + 64;
constexpr std::uint32_t kWideTileOverheadBytes = 2048 + 256 + 64;

// Shared memory a tile's ranking takes beside its keys (shaders/sort_rank_*.glsl): by ballots a
// row of 256 16-bit counters a subgroup; by counting, 4 counters and a scan word an invocation,
// and `per_key` bytes (a word a slot).
struct RankingBytes {
  std::uint32_t fixed = 0;
  std::uint32_t per_key = 0;
};
RankingBytes ranking_bytes(SortRanking r, std::uint32_t threads, std::uint32_t min_subgroup) {
  if (r == SortRanking::ballots) return {threads / min_subgroup * 512, 0};
  return {threads * 5 * 4, 4};
}

std::uint32_t smallest_subgroup(const DeviceFacts& f) {
  const std::uint32_t s = f.min_subgroup_size ? f.min_subgroup_size : f.subgroup_size;
  return std::max<std::uint32_t>(s, 4);
}

std::uint32_t key_kind(DType t) {
  if (t == DType::u32 || t == DType::u64) return 0;
  return is_integer(t) ? 1 : 2;
}

// The radix passes, built both ways (shaders/CMakeLists.txt); init zeroes words either way.
bool has_address_form(SortStage s) {
  return s == SortStage::histogram || s == SortStage::bins || s == SortStage::onesweep ||
         s == SortStage::rts_count || s == SortStage::rts_scan || s == SortStage::rts_scatter;
}

// The passes that rank a tile, built both ways too.
bool ranks_tiles(SortStage s) {
  return s == SortStage::onesweep || s == SortStage::rts_scatter;
}

std::string module_of(const SortPassPlan& p, DType t, bool by_address, SortRanking ranking) {
  std::string m(p.kernel);
  const bool keyless =
      p.stage == SortStage::init || p.stage == SortStage::bins || p.stage == SortStage::rts_scan;
  if (!keyless) m += ".k" + std::to_string(8 * size_of(t));
  if (p.moves_values) m += ".pairs";
  if (ranking == SortRanking::counting && ranks_tiles(p.stage)) m += ".count";
  if (by_address && has_address_form(p.stage)) m += ".addr";
  return m;
}

// The bitonic tile for this device: powers of two throughout, as the network needs.
SortTile bitonic_tile(const DeviceFacts& f, DType t) {
  const std::uint64_t item_bytes = bitonic_item_bytes(t);
  SortTile tile = item_bytes == 16 ? kBitonicTile8 : kBitonicTile4;
  const std::uint32_t most_threads = std::bit_floor(
      std::min(f.limits.maxComputeWorkGroupInvocations, f.limits.maxComputeWorkGroupSize[0]));
  tile.threads = std::min(tile.threads, most_threads);
  const auto fits = [&] { return tile.keys() * item_bytes <= f.limits.maxComputeSharedMemorySize; };
  while (!fits() && tile.items > 1) tile.items /= 2;
  while (!fits() && tile.threads > 1) tile.threads /= 2;
  return tile;
}

// A digit pass's tile: the policy's or `tile`, within the device's shared memory.
SortTile digit_tile(const DeviceFacts& f, DType t, bool wide, SortRanking ranking,
                    std::optional<SortTile> tile) {
  const std::uint32_t key_words = size_of(t) == 8 ? 2 : 1;
  const std::uint32_t shared = f.limits.maxComputeSharedMemorySize;
  const std::uint32_t min_subgroup = smallest_subgroup(f);
  const auto counters = [&](std::uint32_t threads) {
    return ranking_bytes(ranking, threads, min_subgroup);
  };
  std::uint32_t threads = tile                               ? tile->threads
                          : ranking == SortRanking::counting ? kCountingTileThreads
                                                             : kTileThreads;
  if (!tile && counters(threads).fixed > shared / 2) threads = 256;  // small subgroups: more rows
  const std::uint32_t overhead = wide ? kWideTileOverheadBytes : kTileOverheadBytes;
  const std::uint32_t fixed = counters(threads).fixed + overhead;
  const std::uint32_t room = shared > fixed ? shared - fixed : 0;
  const std::uint32_t fits = room / (threads * (key_words * 4 + counters(threads).per_key));
  const bool counting = ranking == SortRanking::counting;
  const std::uint32_t policy_items = key_words == 2
                                         ? (counting ? kCountingTileItems8 : kTileItems8)
                                         : (counting ? kCountingTileItems4 : kTileItems4);
  const std::uint32_t wanted = tile ? tile->items : policy_items;
  const std::uint32_t items = std::min(wanted, fits);
  if (items == 0)
    throw Error(ErrorCategory::unsupported, "a sort tile needs more than the " +
                                                std::to_string(shared) +
                                                " bytes of shared memory this device has");
  return {threads, items};
}

}  // namespace

std::string_view to_string(SortRanking r) {
  return r == SortRanking::ballots ? "subgroup ballots" : "counting";
}

SortRanking sort_ranking(const SortSpec& spec, const DeviceFacts& f, const SortKnobs& knobs) {
  if (knobs.force_counting) return SortRanking::counting;
  return missing_reason(spec.ballot_needs, spec.threads, 0, f).empty() ? SortRanking::ballots
                                                                       : SortRanking::counting;
}

SortPlanOptions sort_plan_options(const DeviceFacts& f, SortFamily family, DType t, bool wide,
                                  SortRanking ranking, const SortKnobs& knobs) {
  SortPlanOptions o;
  if (family == SortFamily::bitonic)
    o.bitonic = bitonic_tile(f, t);
  else
    o.tile = digit_tile(f, t, wide, ranking, knobs.tile);
  o.wide = wide;
  // reduce-then-scan's blocks: a GPU's resident wave, or on a CPU device (lavapipe) its few
  // threads' worth, so that blocks count several tiles from 2^16 keys up.
  o.wave = f.cpu() ? 16 : 256;
  o.scan_threads = std::min<std::uint32_t>(
      1024, std::min(f.limits.maxComputeWorkGroupInvocations, f.limits.maxComputeWorkGroupSize[0]));
  o.polls = knobs.polls;
  return o;
}

SortDispatches sort_dispatches(const SortSpec& spec, const DeviceFacts& f, std::uint64_t n, DType t,
                               SortOrder order, BitRange bits, bool pairs, const SortKnobs& knobs) {
  if (n > sort_plan_max_keys(spec.family))
    throw Error(ErrorCategory::unsupported,
                std::string(spec.id()) + ": " + std::to_string(n) + " keys pass " +
                    std::to_string(sort_plan_max_keys(spec.family)) + ", the most it takes");
  // By address, in core's wide form, past one binding or the narrow form's keys; never bitonic.
  const std::uint64_t largest = std::max<std::uint64_t>(size_of(t), 4) * n;
  const bool by_address =
      spec.family != SortFamily::bitonic &&
      (knobs.force_address || largest > f.limits.maxStorageBufferRange || sort_needs_wide(n));
  const SortRanking ranking = sort_ranking(spec, f, knobs);
  const SortPlanOptions options = sort_plan_options(f, spec.family, t, by_address, ranking, knobs);
  SortDispatches out{.passes = {},
                     .by_address = by_address,
                     .ranking = ranking,
                     .layout = plan_sort_call(spec.family, n, t, pairs, bits, options)};
  if (out.layout.items_bytes > f.limits.maxStorageBufferRange)
    throw Error(ErrorCategory::unsupported,
                std::string(spec.id()) + ": " + std::to_string(n) + " " +
                    std::string(to_string(t)) + " keys take " +
                    std::to_string(out.layout.items_bytes) +
                    " bytes of items, past one storage-buffer binding (" +
                    std::to_string(f.limits.maxStorageBufferRange) + " bytes)");
  const std::uint32_t mode = key_kind(t) | (order == SortOrder::descending ? 4u : 0u);
  for (const SortPassPlan& p : out.layout.passes)
    out.passes.push_back({.module = module_of(p, t, out.by_address, ranking),
                          .workgroup = p.threads,
                          .items = p.items,
                          .window = kLookBackWindow,
                          .sort_mode = mode,
                          .min_subgroup = smallest_subgroup(f),
                          .bindings = p.bindings,
                          .push = p.args,
                          .grid = grid_for(p.groups, f, spec.id()),
                          .by_address = out.by_address && has_address_form(p.stage)});
  return out;
}

}  // namespace xr::vulkan
