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

// Core's schedule of `id` with Vulkan's wide module, shared memory and needs.
constexpr ScanSpec scan_spec(std::string_view id, std::string_view wide_shader,
                             std::uint32_t group_bytes, std::uint32_t needs = 0) {
  return {.schedule = scan_schedule(id),
          .wide_shader = wide_shader,
          .group_bytes = group_bytes,
          .needs = needs};
}

// The look-back's shared memory is its policy's (effective_spec): this is the 32-bit tile's.
constexpr ScanSpec kScans[] = {
    scan_spec("smem/hillis-steele", "scan_hillis_steele_wide", 2 * 512 * 4),
    scan_spec("bit/one-layer", "", 0),
    scan_spec("bit/between-blocks", "", 0),
    scan_spec("bit/smem", "", 256 * 4),
    scan_spec("bit/unrolled", "", 256 * 4),
    scan_spec("blelloch/bcao", "scan_blelloch_bcao_wide", (1024 + 32) * 4),
    scan_spec("subgroup/shuffle-up", "scan_subgroup_shuffle_up_wide", (2048 + 64 + 256) * 4,
              need_subgroup_basic | need_subgroup_shuffle_relative),
    scan_spec("subgroup/arithmetic", "scan_subgroup_arithmetic_wide", (2048 + 64 + 256) * 4,
              need_subgroup_basic | need_subgroup_arithmetic),
    scan_spec("fast/reduce-then-scan", "", 1024 * 4, kVectorTile),
    scan_spec("fast/decoupled-lookback", "", 128 * 4 + 16, kLookBack),
};

}  // namespace

LookBackPolicy lookback_policy(const VulkanKnobs& knobs) {
  // Each tile: the fastest point of a sweep of workgroup x vectors, pauses and window, inclusive
  // sum at 2^28 (f16/bf16 2^27), cold, each point beside CUDA's look-back in the same process
  // (bench/gpu/scan-study; docs/results/H200/scan/vulkan-vs-cuda.md, the whole sweep in
  // docs/results/H200/tuning-notes.md). Pausing by the clock, not by integer steps: the steps
  // gain nothing. Windows of 2-4 words per lane help no 32-bit or 16-bit type. polls: a starting
  // point (how often the fallback fires is in docs/results).
  LookBackPolicy p{.four = {{128, 8},
                            2400,
                            "H200, 2^28 i32 / f32: 128x8 at 2400 cycles 0.668 / 0.670 ms, 256x8 "
                            "0.673 / 0.670 (CUDA 0.646 / 0.651)"},
                   .two = {{128, 8},
                           1200,
                           "H200, 2^27 f16 / bf16: 128x8 at 1200 cycles 0.321 / 0.282 ms, 64x8 "
                           "0.371 / 0.314 (CUDA 0.181 / 0.183)"},
                   .eight = {{64, 16},
                             1200,
                             "H200, 2^28 i64 / f64: 64x16 at 1200 cycles 1.349 / 1.563 ms, with "
                             "window 2 1.359 / 1.593 (CUDA 1.196)"},
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
    if (knobs.lookback_shape || knobs.lookback_backoff)
      tile->evidence = "set by XR_VK_LOOKBACK_SHAPE / XR_VK_LOOKBACK_BACKOFF";
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
  if (spec.schedule.family == ScanFamily::look_back) {
    spec.schedule.threads = std::max(
        {policy.four.shape.workgroup, policy.two.shape.workgroup, policy.eight.shape.workgroup});
    spec.schedule.items = policy.four.shape.vectors;
    spec.group_bytes = spec.schedule.threads * 4 + 16;
  }
  return spec;
}

std::span<const ScanSpec> scan_table() {
  return kScans;
}

}  // namespace xr::vulkan
