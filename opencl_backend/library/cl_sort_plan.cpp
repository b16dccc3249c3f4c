#include "cl_sort_plan.hpp"

#include <algorithm>
#include <bit>

#include "cl_check.hpp"
#include "xreduce/error.hpp"

namespace xr::opencl {
namespace {

// A digit pass's tile and ranking before the device's limits. NVIDIA's warps (48 KiB of local
// memory a work-group): H200, 2^28 u32 keys uniform over every bit pattern, radix/onesweep ms
// (keys / pairs; lib/cub 6.31 / 7.46 in the same sessions), by XR_CL_SORT_TILE and
// XR_CL_BUILD_OPTIONS (-DXR_SORT_MATCH_ANY ranks by one match.any instead of eight ballots):
//   match.any: 256x24 11.13; 256x30 11.31 / 17.49; 320x30 10.84; 384x16 11.66; 384x20 11.13 /
//              17.11; 384x24 10.84 / 15.03; 448x20 11.61; 512x18 11.67 / 15.12; 768x10 13.43
//   ballots:   384x24 7.66 / 16.65; 512x18 7.09 / 16.72; 640x14 7.95; 256x30 - / 17.82;
//              in a later session (lib/cub 6.315): 512x18 7.102; 512x19 (asked 512x20 and
//              512x22; the most 48 KiB holds at 512) 7.154; 448x22 7.155; 480x20 7.243; 544x18
//              8.010, 576x16 8.296 (two work-groups an SM at 40 registers)
// Pairs kept every item's rank and value through the look-back (167 registers and a 336-byte
// stack at 384 x 24); with the ranks two to a word and the values read once the keys are out
// (40 registers at 512 x 18, three work-groups an SM, as keys), lib/cub 7.45 / 6.34:
//   pairs:     ballots 512x18 13.33; match.any 384x24 14.32, 512x18 14.94, 256x30 15.87;
//              ballots with -cl-nv-maxrregcount 48 / 64 at 512x18 13.35 / 13.34 (the same 40
//              registers and 152-byte stack), 56 at 384x24 14.06, 80 at 256x30 15.41
// Keys and pairs rank by ballots at 512 x 18. A pause between polls (CUDA's nanosleep of 32 ns)
// measured the same (10.84, 7.64). 64-bit keys take half the items (not measured). Without
// sub-groups (pocl, a CPU): 256 x 8, a work-group's run of keys a cache's worth (not measured).
constexpr SortTile kBallotTile4{512, 18};
constexpr SortTile kBallotTile8{512, 9};
constexpr SortTile kCountingTile{256, 8};
// bitonic/smem's tile: CUDA's and Vulkan's (32 KiB of items a work-group, 512 work-items), not
// yet measured in OpenCL.
constexpr SortTile kBitonicTile4{512, 8};  // 8-byte items: keys up to 32 bits
constexpr SortTile kBitonicTile8{512, 4};  // 16-byte items: 64-bit keys
// Predecessors a look-back poll reads per digit (CUDA's and Vulkan's window).
constexpr std::uint32_t kLookBackWindow = 8;

// Local memory of a tile of `threads` x `items` keys of `key_words` words (kernels/sort_tile.cl's
// TILE_LOCALS, digit_first's 256 indices two words each in the wide form, and the look-back's two
// words).
std::uint64_t tile_bytes(const DeviceFacts& f, std::uint32_t threads, std::uint32_t items,
                         std::uint32_t key_words, bool wide) {
  const std::uint64_t tile = std::uint64_t{threads} * items;
  const std::uint64_t sg = static_cast<std::uint64_t>(f.subgroup_size());
  const std::uint64_t firsts = wide ? 512 : 256;
  const std::uint64_t words =
      sg > 1 ? tile * key_words + firsts + threads / sg * 128 + 2 + threads / sg
             : tile * key_words + firsts + 16 * threads + std::max<std::uint64_t>(tile, 256) +
                   tile + 2 * threads;
  return 4 * (words + 2);
}

std::uint32_t key_kind(DType t) {
  if (t == DType::u32 || t == DType::u64) return 0;
  return is_integer(t) ? 1 : 2;
}

std::string width_define(DType t) {
  return size_of(t) == 8 ? "-DK64" : size_of(t) == 2 ? "-DK16" : "-DK32";
}

SortTile policy_tile(const DeviceFacts& f, std::uint32_t key_words) {
  if (f.subgroup_size() == 1) return kCountingTile;
  return key_words == 2 ? kBallotTile8 : kBallotTile4;
}

// The bitonic tile for this device: powers of two throughout, as the network needs.
SortTile bitonic_tile(const DeviceFacts& f, DType t) {
  const std::uint64_t item_bytes = bitonic_item_bytes(t);
  SortTile tile = item_bytes == 16 ? kBitonicTile8 : kBitonicTile4;
  tile.threads = std::min<std::uint32_t>(
      tile.threads, std::bit_floor(static_cast<std::uint32_t>(f.max_work_group)));
  const auto fits = [&] { return tile.keys() * item_bytes <= f.local_memory; };
  while (!fits() && tile.items > 1) tile.items /= 2;
  while (!fits() && tile.threads > 1) tile.threads /= 2;
  return tile;
}

KernelKey key_of(const SortPassPlan& p, DType t, bool wide_form) {
  const bool keyless =
      p.stage == SortStage::init || p.stage == SortStage::bins || p.stage == SortStage::rts_scan;
  // init zeroes words the same way in either form: one program for both.
  const bool wide = wide_form && p.stage != SortStage::init;
  std::string defines = keyless ? "-DK32" : width_define(t);
  if (p.moves_values) defines += " -DPAIRS";
  if (wide) defines += " -DWIDE";  // with idx64: common.cl's IDX in 64 bits
  if (p.stage == SortStage::onesweep) defines += " -DWINDOW=" + std::to_string(kLookBackWindow);
  return {.kernel = std::string(p.kernel),
          .dtype = DType::u32,  // the key's width is the define: one build for every kind
          .op = Op::sum,
          .workgroup = p.threads,
          .unroll = p.items,
          .idx64 = wide,
          .defines = defines};
}

// A digit pass's tile: the policy's or `tile`, within the device's work-group and local memory.
SortTile digit_tile(const DeviceFacts& f, DType t, bool wide, std::optional<SortTile> tile) {
  const std::uint32_t key_words = size_of(t) == 8 ? 2 : 1;
  SortTile wanted = tile ? *tile : policy_tile(f, key_words);
  wanted.threads = std::min<std::uint32_t>(
      wanted.threads, static_cast<std::uint32_t>(std::min<std::size_t>(f.max_work_group, 1024)));
  if (wanted.threads < 256)
    throw Error(ErrorCategory::unsupported, "a sort tile needs work-groups of 256, " + f.info.name +
                                                " allows " + std::to_string(f.max_work_group));
  while (wanted.items > 1 &&
         tile_bytes(f, wanted.threads, wanted.items, key_words, wide) > f.local_memory)
    --wanted.items;
  if (tile_bytes(f, wanted.threads, wanted.items, key_words, wide) > f.local_memory)
    throw Error(ErrorCategory::unsupported, "a sort tile needs more than the " +
                                                std::to_string(f.local_memory) +
                                                " bytes of local memory " + f.info.name + " has");
  return wanted;
}

}  // namespace

SortPlanOptions sort_plan_options(const DeviceFacts& f, SortFamily family, DType t, bool wide,
                                  std::uint32_t polls, std::optional<SortTile> tile) {
  SortPlanOptions o;
  if (family == SortFamily::bitonic)
    o.bitonic = bitonic_tile(f, t);
  else
    o.tile = digit_tile(f, t, wide, tile);
  o.wide = wide;
  // reduce-then-scan's blocks: a GPU's resident wave, or on a CPU device its few threads' worth.
  o.wave = (f.type & CL_DEVICE_TYPE_CPU) ? 16 : 256;
  o.scan_threads = static_cast<std::uint32_t>(std::min<std::size_t>(1024, f.max_work_group));
  o.polls = polls;
  return o;
}

SortLaunches sort_launches(const SortSpec& spec, const DeviceFacts& f, std::uint64_t n, DType t,
                           SortOrder order, BitRange bits, bool pairs, std::uint32_t polls,
                           std::optional<SortTile> tile, bool force_wide) {
  if (n > sort_plan_max_keys(spec.family))
    throw Error(ErrorCategory::unsupported,
                std::string(spec.id()) + ": " + std::to_string(n) + " keys pass " +
                    std::to_string(sort_plan_max_keys(spec.family)) + ", the most it takes");
  const bool wide = spec.family != SortFamily::bitonic && (force_wide || sort_needs_wide(n));
  SortLaunches out;
  out.layout = plan_sort_call(spec.family, n, t, pairs, bits,
                              sort_plan_options(f, spec.family, t, wide, polls, tile));
  out.mode = key_kind(t) | (order == SortOrder::descending ? 4u : 0u);
  out.key_bytes = static_cast<std::uint32_t>(size_of(t));
  for (const SortPassPlan& p : out.layout.passes)
    out.passes.push_back(
        {.key = key_of(p, t, wide), .bindings = p.bindings, .args = p.args, .groups = p.groups});
  return out;
}

void enqueue_sort(Programs& programs, cl_command_queue queue, const SortLaunches& launches,
                  const SortRegions& regions, const EnqueueEvents& events) {
  static_assert(sizeof(SortArgs) == 22 * 4, "SortArgs must match kernels/sort_common.cl");
  for (std::size_t i = 0; i < launches.passes.size(); ++i) {
    const SortLaunch& p = launches.passes[i];
    cl_kernel kernel = programs.kernel(p.key);
    cl_uint arg = 0;
    for (std::size_t b = 0; b < kSortBindings; ++b) {
      const SortRegion& r = regions[static_cast<std::size_t>(p.bindings[b])];
      // Offsets in the argument's elements: keys at the first two, 32-bit words after (every
      // region starts 256-byte aligned).
      const cl_ulong elements = r.offset / (b < 2 ? launches.key_bytes : 4);
      XR_CL_CHECK(clSetKernelArg(kernel, arg++, sizeof(cl_mem), &r.buffer));
      XR_CL_CHECK(clSetKernelArg(kernel, arg++, sizeof elements, &elements));
    }
    XR_CL_CHECK(clSetKernelArg(kernel, arg++, sizeof p.args, &p.args));
    const cl_uint mode = launches.mode;
    XR_CL_CHECK(clSetKernelArg(kernel, arg++, sizeof mode, &mode));
    enqueue_launch(queue, kernel, p.key.workgroup, p.groups, i, launches.passes.size(), events);
  }
}

}  // namespace xr::opencl
