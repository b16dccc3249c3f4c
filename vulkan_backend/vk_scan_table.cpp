#include "vk_scan_table.hpp"

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
    // workgroup and items here are the 4-byte shape (lookback_policy).
    {.id = "fast/decoupled-lookback",
     .family = ScanFamily::look_back,
     .shader = "scan_lookback",
     .workgroup = 128,
     .items = 16,
     .shared_bytes = 128 * 4 + 16,
     .needs = kLookBack,
     .deterministic = false},
};

}  // namespace

LookBackPolicy lookback_policy(const VulkanKnobs& knobs) {
  // polls: a starting point (how often it triggers on the H200 and on lavapipe is in
  // docs/results). backoff: off, since on an H200 at 2^28 i32 it changed nothing measurable
  // (128 x 8: 0.790-0.797 ms for 0, 50, 150, 300, 600; 128 x 16: 0.745 / 0.750 / 0.742 ms for 0,
  // 100, 400): a spinning subgroup keeps its issue slots where __nanosleep gives them up.
  LookBackPolicy p{.shape_4byte = {128, 16},
                   .shape_8byte = {256, 8},
                   .polls = 512,
                   .backoff = 0,
                   .pause_tiles = 500,
                   .no_wait = knobs.lookback_no_wait};
  if (knobs.lookback_shape) p.shape_4byte = p.shape_8byte = *knobs.lookback_shape;
  if (knobs.lookback_polls) p.polls = *knobs.lookback_polls;
  if (knobs.lookback_backoff) p.backoff = *knobs.lookback_backoff;
  return p;
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
