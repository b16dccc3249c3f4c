#include "cl_sort_plan.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <string_view>

#include "cl_check.hpp"
#include "xreduce/error.hpp"
#include "xreduce/sort_plan.hpp"
#include "xreduce/sort_tiles.hpp"

namespace xr::opencl {
namespace {

// A digit pass's tile before the device's limits, by whether the device has sub-groups and by key
// width: on NVIDIA's warps (eight warp ballots), three work-groups an SM at 40 registers; without
// sub-groups (a CPU), a work-group's run of keys a cache's worth. Pairs rank as keys do: their
// values are read once the keys are out. The sweeps behind each row (tiles, match.any against
// ballots, register caps, pauses between polls): docs/results/H200/tuning-notes.md.
constexpr DigitTileTuning kDigitTiles[] = {
    {"sub-groups",
     4,
     {512, 18},
     "H200, 2^28 u32 keys / pairs, radix/onesweep 7.10 / 13.33 ms (lib/cub 6.32 / 7.45 in the "
     "same sessions), the fastest of 9 ballot tiles from 256 x 30 to 640 x 14 and of 9 match.any "
     "tiles; with the probed local memory the keys' best of 7 more, 512 x 22, ran 7.07",
     {768, 14},
     "H200, 2^28 u32 pairs, radix/onesweep 11.99 ms (lib/cub 7.41 in the same session; 512 x 18 "
     "13.25), the fastest of 6 tiles past 48 KiB from 512 x 20 to 1024 x 12, in the local memory "
     "the probe finds"},
    {"sub-groups", 8, {512, 9}, "half the 32-bit keys' items; not measured"},
    {"no sub-groups",
     4,
     {256, 8},
     "a CPU device's cache's worth of keys a work-group; not measured"},
    {"no sub-groups",
     8,
     {256, 8},
     "a CPU device's cache's worth of keys a work-group; not measured"},
};
// Whether the stages that read keys by their order are built per key kind and order
// (-DSORT_MODE: the codec folded into each key's digit) or once per key width with the kind and
// order a kernel argument, by whether the device has sub-groups, as the tiles above.
struct ModeBuildTuning {
  std::string_view device;
  bool per_mode = false;
  std::string_view evidence;
};
constexpr ModeBuildTuning kModeBuilds[] = {
    {"sub-groups", true,
     "H200, 16M radix/onesweep built per mode against per width in one call: u32 / i32 / f32 "
     "keys 0.534 / 0.528 / 0.584 ms against 0.539 / 0.581 / 0.583, pairs 0.790 / 0.783 / 0.841 "
     "against 0.843 / 0.918 / 0.882 (radix/reduce-then-scan 0.97-1.58 against 1.08-1.73); "
     "2^28 i32 keys 6.72 ms with the kind alone fixed against 7.83, on two H200s "
     "(docs/results/H200/sort/three-apis)"},
    {"no sub-groups", false,
     "pocl on two cores: the OpenCL sorts' three conformance cases take 22 s cold built per "
     "width, 140 s built per mode (the builds are the cost); sort times not compared"},
};

// Whether the plan's programs are built per key kind and order: the device's row, or `asked`
// (the tool's knob); and the tuning note that says so, with the row's evidence.
struct ModeBuild {
  bool per_mode = false;
  std::string note;
};
ModeBuild mode_build(const DeviceFacts& f, std::optional<bool> asked) {
  const std::string_view device = f.subgroup_size() > 1 ? "sub-groups" : "no sub-groups";
  const ModeBuildTuning& row =
      *std::find_if(std::begin(kModeBuilds), std::end(kModeBuilds),
                    [&](const ModeBuildTuning& r) { return r.device == device; });
  ModeBuild out{.per_mode = asked.value_or(row.per_mode), .note = {}};
  out.note = out.per_mode ? "; the key's kind and order built in ("
                          : "; the key's kind and order an argument (";
  out.note += asked ? std::string("the tool's XR_CL_SORT_MODE") : std::string(row.evidence);
  out.note += ")";
  return out;
}

// A digit tile's local memory (kernels/sort_tile.cl's TILE_LOCALS: the staged keys of
// `key_words` words, digit_first's 256 indices, two words each in the wide form, the rankings'
// counters, the totals and origins, the scan's slots; and the look-back's two words). With
// sub-groups: 128 counters and a slot a sub-group, one total and one origin. Without: 16 counters
// and two slots a work-item, a total and an origin a key (a tile of 256 work-items or more holds
// at least the 256 totals).
sort::TileBytes tile_bytes(std::uint32_t key_words, bool wide, bool subgroups) {
  const std::uint64_t firsts = wide ? 512 : 256;
  if (subgroups)
    return {.fixed = 4 * (firsts + 1 + 1 + 2),
            .per_subgroup = 4 * (128 + 1),
            .per_key = 4 * std::uint64_t{key_words}};
  return {.fixed = 4 * (firsts + 2),
          .per_thread = 4 * (16 + 2),
          .per_key = 4 * (std::uint64_t{key_words} + 2)};
}

sort::Limits limits_of(const DeviceFacts& f) {
  return {.shared_bytes = f.working_local(),
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

// A digit pass's tile: the tuning table's, or `tile`, within the device's work-group and local
// memory.
DigitTileRequest digit_request(const DeviceFacts& f, DType t, bool wide, bool pairs,
                               std::optional<sort::Tile> tile) {
  const std::uint32_t key_words = size_of(t) == 8 ? 2 : 1;
  const bool subgroups = f.subgroup_size() > 1;
  const DigitTileTuning& row =
      find_digit_tuning(kDigitTiles, subgroups ? "sub-groups" : "no sub-groups", t);
  return {.wanted = tile.value_or(row.tile_for(pairs)),
          .evidence = tile ? "the tool's XR_CL_SORT_TILE" : row.evidence_for(pairs),
          .bytes = tile_bytes(key_words, wide, subgroups),
          .capped = true};
}

// The build of the pass's stage for the key's width (one build for a keyless stage), its kind and
// order where built `per_mode` (the stages that read keys by their order), its values and the wide
// form (the stages with one: xreduce/sort_stages.h).
KernelKey key_of(const sort::Pass& p, DType t, std::uint32_t mode, bool per_mode, bool wide_form) {
  const sort::StageForms& forms = sort_stage_forms(p.stage);
  const bool wide = wide_form && forms.address;
  std::string defines = forms.keys ? width_define(t) : "-DK32";
  if (forms.ordered && per_mode) defines += " -DSORT_MODE=" + std::to_string(mode);
  if (p.values != SortValues::none) defines += " -DPAIRS";
  if (p.values == SortValues::u64) defines += " -DVALUE64";
  if (wide) defines += " -DWIDE";  // with idx64: common.cl's IDX in 64 bits
  if (p.stage == sort::Stage::onesweep)
    defines += " -DWINDOW=" + std::to_string(kSortLookBackWindow);
  return {.kernel = std::string(p.kernel),
          .dtype = DType::u32,  // the key's width (and kind and order) are defines
          .op = Op::sum,
          .workgroup = p.threads,
          .unroll = p.items,
          .idx64 = wide,
          .defines = defines};
}

}  // namespace

sort::ScheduleOptions sort_plan_options(const DeviceFacts& f, sort::Family family, DType t,
                                        bool wide, std::uint32_t polls,
                                        std::optional<sort::Tile> tile, bool pairs) {
  sort::ScheduleOptions o = xr::sort_plan_options(limits_of(f), family, t, wide, polls,
                                                  digit_request(f, t, wide, pairs, tile));
  o.tuning += "; local memory " + std::to_string(f.working_local()) + " bytes" +
              (f.working_local() > f.local_memory
                   ? " working, " + std::to_string(f.local_memory) + " reported"
                   : " as reported");
  return o;
}

namespace {

// core's passes of `out.layout` into `out.passes`.
void translate(sort::Plan& out, DType t, std::uint32_t mode, bool per_mode, bool wide) {
  out.passes.clear();
  for (const sort::Pass& p : out.layout.passes)
    out.passes.push_back({.key = key_of(p, t, mode, per_mode, wide), .groups = p.groups});
}

}  // namespace

sort::Plan sort_launches(const sort::Spec& spec, const DeviceFacts& f, std::uint64_t n, DType t,
                         SortOrder order, BitRange bits, SortValues values, std::uint32_t polls,
                         std::optional<sort::Tile> tile, bool force_wide,
                         std::optional<bool> per_mode) {
  if (const std::string why = sort_count_refusal(spec.id(), spec.family, n); !why.empty())
    throw Error(ErrorCategory::unsupported, why);
  const bool wide = sort_wide_form(spec.family, n, t, force_wide);
  sort::Plan out;
  out.options = sort_plan_options(f, spec.family, t, wide, polls, tile, values != SortValues::none);
  out.layout = plan_sort_call(spec.family, n, t, values, bits, out.options);
  out.mode = sort_mode(t, order);
  const ModeBuild modes = mode_build(f, per_mode);
  out.layout.tuning += modes.note;
  out.key_bytes = static_cast<std::uint32_t>(size_of(t));
  out.dtype = t;
  out.per_mode = modes.per_mode;
  out.wide = wide;
  translate(out, t, out.mode, modes.per_mode, wide);
  return out;
}

sort::Plan sort_counted_launches(const sort::Spec& spec, const sort::Plan& direct, BitRange bits,
                                 SortValues values) {
  sort::Plan out = direct;
  plan_counted_call(out.layout, spec.id(), spec.family, direct.dtype, values, bits, out.options);
  translate(out, direct.dtype, direct.mode, direct.per_mode, direct.wide);
  return out;
}

void add_sort_kernels(Programs& programs, const sort::Plan& plan, sort::StageKernels& kernels) {
  for (std::size_t i = 0; i < plan.passes.size(); ++i)
    kernels[static_cast<std::size_t>(plan.layout.passes[i].stage)] =
        programs.kernel(plan.passes[i].key);
}

void enqueue_sort(cl_command_queue queue, std::span<const sort::Pass> passes,
                  const sort::CallOperands& call, const EnqueueEvents& events) {
  static_assert(sizeof(sort::Args) == 24 * 4, "sort::Args must match kernels/sort_common.cl");
  const auto set_region = [&](cl_kernel kernel, cl_uint& arg, const sort::Region& r,
                              std::uint32_t element_bytes) {
    // Offsets in the argument's elements (every region starts 256-byte aligned but the count).
    const cl_ulong elements = r.offset / element_bytes;
    XR_CL_CHECK(clSetKernelArg(kernel, arg++, sizeof(cl_mem), &r.buffer));
    XR_CL_CHECK(clSetKernelArg(kernel, arg++, sizeof elements, &elements));
  };
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const sort::Pass& p = passes[i];
    cl_kernel kernel = (*call.kernels)[static_cast<std::size_t>(p.stage)];
    cl_uint arg = 0;
    // Keys at the first two, 32-bit words after.
    for (std::size_t b = 0; b < sort::kBindings; ++b)
      set_region(kernel, arg, call.regions[static_cast<std::size_t>(p.bindings[b])],
                 b < 2 ? call.key_bytes : 4);
    set_region(kernel, arg, call.count, 4);
    XR_CL_CHECK(clSetKernelArg(kernel, arg++, sizeof p.args, &p.args));
    XR_CL_CHECK(clSetKernelArg(kernel, arg++, sizeof call.mode, &call.mode));
    enqueue_launch(queue, kernel, p.threads, p.groups, i, passes.size(), events);
  }
}

}  // namespace xr::opencl
