// A scan's plan in Vulkan: core's plan (xreduce/scan_plan.hpp) translated pass for pass into
// dispatches: each stage's shader (a wide tile's own module, the look-back's clock variant), its
// specialization constants, push constants and grid for this device, and the look-back's pauses.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "vk_grid.hpp"
#include "vk_pipelines.hpp"
#include "vk_recording.hpp"
#include "vk_scan_table.hpp"
#include "xreduce/scan_plan.hpp"

namespace xr::vulkan {

struct ScanDispatch {
  std::string_view shader;
  std::uint32_t workgroup = 256;  // specialization constant 0
  std::uint32_t unroll = 1;       // specialization constant 1: the pass's items
  std::uint32_t backoff = 0;      // specialization constant 2
  std::uint32_t mode = 0;         // specialization constant 4 (scan_lookback.comp)
  Roles roles = kIoBuffers;
  PushConstants push;
  Grid grid;
  bool reads_accumulators = false;  // a pass over scratch alone scans accumulators
  bool takes_kind = false;  // the pass writes the caller's output: exclusive when the call is
};

struct ScanDispatches {
  std::vector<ScanDispatch> passes;
  std::uint64_t scratch_bytes = 16;
  std::optional<std::uint64_t> fallbacks_at;  // look-back: bytes into scratch of the count
  std::uint32_t tiles = 0;                    // look-back: tiles of one call
};

// What core's plan needs of Vulkan for one call: the look-back's tile for `t`, its polls and
// one-group limit, the device's largest workgroup.
ScanPlanOptions scan_plan_options(const LookBackPolicy& policy, const DeviceFacts& facts, DType t);

// n >= 1: core's plan of `spec`'s schedule, translated. Error(unsupported) where the look-back is
// asked to count the subgroup clock (XR_VK_LOOKBACK_CLOCK=1) on a device without it.
ScanDispatches scan_dispatches(const ScanSpec& spec, const DeviceFacts& facts, std::uint64_t n,
                               DType t, const LookBackPolicy& lookback);

}  // namespace xr::vulkan
