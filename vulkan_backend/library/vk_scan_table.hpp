// The Vulkan scan variants as data: the wide shaders, shared memory and requirements of each id,
// and the look-back's tuning; each id's schedule (family, tile, kernels, passes) is core's
// (xreduce/scan_plan.hpp), as CUDA's ladder follows it with warps where Vulkan has subgroups.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "vk_device_facts.hpp"
#include "vk_knobs.hpp"
#include "xreduce/backend.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/scan_plan.hpp"

namespace xr::vulkan {

// A scan id in Vulkan: core's schedule (xreduce/scan_plan.hpp: family, tile, kernels, each
// kernel a shader of the same name in shaders/, modules "<shader>.<dtype>[.addr]"), the module of
// its tile scan that writes float results, and what it needs of the device.
struct ScanSpec {
  ScanSchedule schedule;
  // tiled: the tile scan writing float results to scratch, for f16/bf16 scans of more than one
  // tile (shaders/scan_common.glsl, XR_WIDE_DST)
  std::string_view wide_shader{};
  std::uint32_t group_bytes = 0;  // the most shared memory one of its shaders declares, with
                                  // 4-byte accumulators (8-byte ones: twice, vk_requirements)
  std::uint32_t needs = 0;        // Need bits (vk_requirements.hpp)
  std::string_view id() const { return schedule.id; }
};

// One element size's look-back tile: its shape (workgroup x 4-element vectors) and the pause
// between polls (specialization constant 2; twice that before the first look), in cycles of the
// subgroup clock where it is used, else in dependent integer steps of about 4 cycles.
struct LookBackTile {
  LookBackShape shape;
  std::uint32_t backoff = 0;
  std::string_view evidence;  // the measurement that chose shape and backoff
};

// XR_VK_LOOKBACK_CLOCK: unset, the clock wherever the device has it; 1, required; 0, never.
enum class LookBackClock { automatic, on, off };

// fast/decoupled-lookback's tuning, each overridden by its knob (docs/cli.md).
struct LookBackPolicy {
  LookBackTile four;   // 32-bit types
  LookBackTile two;    // f16 and bf16 (4-byte accumulators, 2-byte elements)
  LookBackTile eight;  // 8-byte accumulators (i64, u64, f64)
  // Polls of an incomplete window before the workgroup stops waiting and reduces the missing
  // predecessors itself (the decoupled fallback); 0 falls back at the first one (tests).
  std::uint32_t polls = 0;
  // Grids of fewer tiles never pause (as CUDA pauses grids of at least 500 blocks).
  std::uint32_t pause_tiles = 0;
  // Status words each lane reads per poll (specialization constant 4): a window of
  // window x subgroup-size predecessors per L2 round trip.
  std::uint32_t window = 1;
  LookBackClock clock = LookBackClock::automatic;
  bool no_wait = false;      // XR_VK_LOOKBACK_EXPERIMENT=no-wait
  bool plain_loads = false;  // XR_VK_LOOKBACK_EXPERIMENT=plain-loads
  // Up to this n, one workgroup scans the array with a carry (core's kScanOneGroupMax).
  std::uint64_t one_group_max = 0;

  const LookBackTile& tile_of(DType t) const;
};
LookBackPolicy lookback_policy(const VulkanKnobs& knobs);

// The spec as the device runs it: the look-back's tile is its policy's (a knob may change it).
ScanSpec effective_spec(ScanSpec spec, const LookBackPolicy& policy);

std::span<const ScanSpec> scan_table();
inline const ScanSpec* find_scan(std::string_view id) {
  return find_row(scan_table(), id);
}

}  // namespace xr::vulkan
