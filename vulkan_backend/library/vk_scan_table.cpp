#include "vk_scan_table.hpp"

#include <algorithm>

#include "vk_requirements.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/shapes.hpp"

namespace xr::vulkan {
namespace {

// The fast/* tile (shaders/scan_vector_tile.glsl): subgroup scans, shuffles for the segment carry.
constexpr std::uint32_t kVectorTile = need_subgroup_basic | need_subgroup_arithmetic |
                                      need_subgroup_shuffle | need_subgroup_shuffle_relative;
constexpr std::uint32_t kLookBack =
    kVectorTile | need_subgroup_ballot | need_subgroup_vote | need_int64_atomics;

constexpr TileShape shape(std::string_view id) {
  return shared_shape(Primitive::scan, id);
}

// The shapes are core's shared ones (the CUDA ladder's: hillis-steele 512 x 1, bcao 512 x 2, the
// register rung 256 x 8 with subgroups for warps, the BIT the seed's 256, reduce-then-scan
// 256 x 4 vectors), but for the look-back's (core's kShapeExceptions, with the sweep).
constexpr ScanSpec kScans[] = {
    {.id = "smem/hillis-steele",
     .shader = "scan_hillis_steele",
     .wide_shader = "scan_hillis_steele_wide",
     .workgroup = shape("smem/hillis-steele").threads,
     .items = shape("smem/hillis-steele").items,
     .shared_bytes = 2 * 512 * 4},
    {.id = "bit/one-layer",
     .family = ScanFamily::bit,
     .shader = "bit_build_block",
     .levels = "bit_build_level",
     .query = "bit_query",
     .workgroup = shape("bit/one-layer").threads},
    {.id = "bit/between-blocks",
     .family = ScanFamily::bit,
     .shader = "bit_build_block",
     .levels = "bit_build_between",
     .query = "bit_query",
     .workgroup = shape("bit/between-blocks").threads},
    {.id = "bit/smem",
     .family = ScanFamily::bit,
     .shader = "bit_build_block",
     .levels = "bit_build_between",
     .query = "bit_query_smem",
     .workgroup = shape("bit/smem").threads,
     .shared_bytes = 256 * 4},
    {.id = "bit/unrolled",
     .family = ScanFamily::bit,
     .shader = "bit_build_block_unrolled",
     .levels = "bit_build_between",
     .query = "bit_query_smem",
     .workgroup = shape("bit/unrolled").threads,
     .shared_bytes = 256 * 4},
    {.id = "blelloch/bcao",
     .shader = "scan_blelloch_bcao",
     .wide_shader = "scan_blelloch_bcao_wide",
     .workgroup = shape("blelloch/bcao").threads,
     .items = shape("blelloch/bcao").items,
     .shared_bytes = (1024 + 32) * 4},
    {.id = "subgroup/shuffle-up",
     .shader = "scan_subgroup_shuffle_up",
     .wide_shader = "scan_subgroup_shuffle_up_wide",
     .workgroup = kRegisterScanShape.threads,
     .items = kRegisterScanShape.items,
     .shared_bytes = (2048 + 64 + 256) * 4,
     .needs = need_subgroup_basic | need_subgroup_shuffle_relative},
    {.id = "subgroup/arithmetic",
     .shader = "scan_subgroup_arithmetic",
     .wide_shader = "scan_subgroup_arithmetic_wide",
     .workgroup = kRegisterScanShape.threads,
     .items = kRegisterScanShape.items,
     .shared_bytes = (2048 + 64 + 256) * 4,
     .needs = need_subgroup_basic | need_subgroup_arithmetic},
    {.id = "fast/reduce-then-scan",
     .family = ScanFamily::reduce_then_scan,
     .shader = "scan_rts_tiles",
     .workgroup = shape("fast/reduce-then-scan").threads,
     .items = shape("fast/reduce-then-scan").items / 4,
     .shared_bytes = 1024 * 4,
     .needs = kVectorTile},
    // The look-back sums a tile's predecessors in an order that depends on which of them have
    // published their inclusive prefix yet: floats differ in the last bits run to run. Its
    // workgroup and items here are the 32-bit shape of lookback_policy (the scanner takes the
    // policy's, which a knob may change).
    {.id = "fast/decoupled-lookback",
     .family = ScanFamily::look_back,
     .shader = "scan_lookback",
     .workgroup = 128,
     .items = 8,
     .shared_bytes = 128 * 4 + 16,
     .needs = kLookBack,
     .deterministic = false},
};

}  // namespace

LookBackPolicy lookback_policy(const VulkanKnobs& knobs) {
  // H200, 2^28 (f16/bf16 2^27), inclusive sum, cold, each point beside CUDA's look-back in the
  // same process (bench/gpu/scan-study, docs/results/H200/scan/vulkan-vs-cuda.md), Vulkan ms:
  // - 32-bit: 128 x 8 with 2400 clock cycles 0.668 / 0.670 (i32 / f32; CUDA 0.646 / 0.651);
  //   256 x 8 0.673 / 0.670; 128 x 16 (the tile before) 0.677 / 0.723, without pauses
  //   0.743-0.751 / 0.793-0.797; its 3600 cycles 0.672 / 0.747, 4800 0.711 / 0.810. Integer
  //   steps instead of the clock gained nothing (the study before this one).
  // - 8-byte: 64 x 16 with 1200 cycles 1.349 / 1.563 (i64 / f64; CUDA 1.196); with window 2
  //   1.359 / 1.593; 128 x 8 with window 2, 1200 cycles 1.461 / 1.517; 256 x 8 without pauses
  //   (the tile before) 1.719 / 1.800.
  // - f16/bf16: 128 x 8 with 1200 cycles 0.321 / 0.282 (CUDA 0.181 / 0.183); 128 x 16 without
  //   pauses 0.422 / 0.324; 64 x 8 0.371 / 0.314; 128 x 4 0.381 / 0.352.
  // Windows of 2-4 words per lane helped no 32-bit or 16-bit type. polls: a starting point (how
  // often the fallback fires on the H200 and on lavapipe is in docs/results).
  LookBackPolicy p{.four = {{128, 8}, 2400},
                   .two = {{128, 8}, 1200},
                   .eight = {{64, 16}, 1200},
                   .polls = 512,
                   .pause_tiles = 500,
                   .window = 1,
                   .no_wait = knobs.lookback_no_wait,
                   .plain_loads = knobs.lookback_plain_loads,
                   .one_group_max = knobs.one_group.max};
  if (knobs.lookback_clock)
    p.clock = *knobs.lookback_clock ? LookBackClock::on : LookBackClock::off;
  for (LookBackTile* tile : {&p.four, &p.two, &p.eight}) {
    if (knobs.lookback_shape) tile->shape = *knobs.lookback_shape;
    if (knobs.lookback_backoff) tile->backoff = *knobs.lookback_backoff;
  }
  if (knobs.lookback_polls) p.polls = *knobs.lookback_polls;
  if (knobs.lookback_window) p.window = *knobs.lookback_window;
  return p;
}

const LookBackTile& LookBackPolicy::tile_of(DType t) const {
  if (size_of(accumulator_of(t)) == 8) return eight;
  return size_of(t) == 2 ? two : four;
}

ScanSpec effective_spec(ScanSpec spec, const LookBackPolicy& policy) {
  if (spec.family == ScanFamily::look_back) {
    spec.workgroup = std::max(
        {policy.four.shape.workgroup, policy.two.shape.workgroup, policy.eight.shape.workgroup});
    spec.items = policy.four.shape.vectors;
    spec.shared_bytes = spec.workgroup * 4 + 16;
  }
  return spec;
}

std::span<const ScanSpec> scan_table() {
  return kScans;
}

const ScanSpec* find_scan(std::string_view id) {
  for (const auto& s : kScans)
    if (s.id == id) return &s;
  return nullptr;
}

VariantInfo scan_info(const ScanSpec& spec) {
  VariantInfo info =
      catalog_variant(Primitive::scan, spec.id, vulkan_dtypes(), {Op::sum, Op::min, Op::max});
  info.deterministic = spec.deterministic;
  info.requirements = requirement_words(spec.needs);
  return info;
}

std::string scan_unsupported_reason(const ScanSpec& spec, const DeviceFacts& f) {
  return missing_reason(spec.needs, spec.workgroup, spec.shared_bytes, f);
}

}  // namespace xr::vulkan
