#include "cl_sort_plan.hpp"

#include <algorithm>
#include <limits>

#include "cl_check.hpp"
#include "xreduce/error.hpp"
#include "xreduce/sort_plan.hpp"
#include "xreduce/sort_tiles.hpp"

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

// A digit tile's local memory (kernels/sort_tile.cl's TILE_LOCALS: the staged keys of
// `key_words` words, digit_first's 256 indices, two words each in the wide form, the rankings'
// counters, the totals and origins, the scan's slots; and the look-back's two words). With
// sub-groups: 128 counters and a slot a sub-group, one total and one origin. Without: 16 counters
// and two slots a work-item, a total and an origin a key (a tile of 256 work-items or more holds
// at least the 256 totals).
SortTileBytes tile_bytes(std::uint32_t key_words, bool wide, bool subgroups) {
  const std::uint64_t firsts = wide ? 512 : 256;
  if (subgroups)
    return {.fixed = 4 * (firsts + 1 + 1 + 2),
            .per_subgroup = 4 * (128 + 1),
            .per_key = 4 * std::uint64_t{key_words}};
  return {.fixed = 4 * (firsts + 2),
          .per_thread = 4 * (16 + 2),
          .per_key = 4 * (std::uint64_t{key_words} + 2)};
}

SortLimits limits_of(const DeviceFacts& f) {
  return {.shared_bytes = f.local_memory,
          .max_threads = static_cast<std::uint32_t>(
              std::min<std::size_t>(f.max_work_group, std::numeric_limits<std::uint32_t>::max())),
          .subgroup = static_cast<std::uint32_t>(f.subgroup_size()),
          .cpu = (f.type & CL_DEVICE_TYPE_CPU) != 0,
          .memory = "local",
          .workgroups = "work-groups",
          .device = f.info.name};
}

std::string width_define(DType t) {
  return size_of(t) == 8 ? "-DK64" : size_of(t) == 2 ? "-DK16" : "-DK32";
}

// A digit pass's tile: the policy's, or `tile`, within the device's work-group and local memory.
DigitTileRequest digit_request(const DeviceFacts& f, DType t, bool wide,
                               std::optional<SortTile> tile) {
  const std::uint32_t key_words = size_of(t) == 8 ? 2 : 1;
  const bool subgroups = f.subgroup_size() > 1;
  const SortTile policy = !subgroups ? kCountingTile : key_words == 2 ? kBallotTile8 : kBallotTile4;
  return {.wanted = tile.value_or(policy),
          .bytes = tile_bytes(key_words, wide, subgroups),
          .capped = true};
}

KernelKey key_of(const SortPassPlan& p, DType t, bool wide_form) {
  const bool keyless =
      p.stage == SortStage::init || p.stage == SortStage::bins || p.stage == SortStage::rts_scan;
  // init zeroes words the same way in either form: one program for both.
  const bool wide = wide_form && p.stage != SortStage::init;
  std::string defines = keyless ? "-DK32" : width_define(t);
  if (p.moves_values) defines += " -DPAIRS";
  if (wide) defines += " -DWIDE";  // with idx64: common.cl's IDX in 64 bits
  if (p.stage == SortStage::onesweep) defines += " -DWINDOW=" + std::to_string(kSortLookBackWindow);
  return {.kernel = std::string(p.kernel),
          .dtype = DType::u32,  // the key's width is the define: one build for every kind
          .op = Op::sum,
          .workgroup = p.threads,
          .unroll = p.items,
          .idx64 = wide,
          .defines = defines};
}

}  // namespace

SortPlanOptions sort_plan_options(const DeviceFacts& f, SortFamily family, DType t, bool wide,
                                  std::uint32_t polls, std::optional<SortTile> tile) {
  return xr::sort_plan_options(limits_of(f), family, t, wide, polls,
                               digit_request(f, t, wide, tile));
}

SortLaunches sort_launches(const SortSpec& spec, const DeviceFacts& f, std::uint64_t n, DType t,
                           SortOrder order, BitRange bits, bool pairs, std::uint32_t polls,
                           std::optional<SortTile> tile, bool force_wide) {
  if (const std::string why = sort_count_refusal(spec.id(), spec.family, n); !why.empty())
    throw Error(ErrorCategory::unsupported, why);
  const bool wide = sort_wide_form(spec.family, n, t, force_wide);
  SortLaunches out;
  out.layout = plan_sort_call(spec.family, n, t, pairs, bits,
                              sort_plan_options(f, spec.family, t, wide, polls, tile));
  out.mode = sort_mode(t, order);
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
