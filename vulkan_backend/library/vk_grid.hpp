// Grids for any number of workgroups.
#pragma once

#include <cstdint>
#include <string_view>

#include "vk_device_facts.hpp"

namespace xr::vulkan {

// A dispatch of `groups` workgroups: 1-D where maxComputeWorkGroupCount[0] allows, else 2-D
// (shaders linearise with linear_workgroup() and return past pc.groups).
struct Grid {
  std::uint32_t x = 1, y = 1;
};
// Error(unsupported) when even a 2-D grid cannot hold `groups`; `what` names the variant.
Grid grid_for(std::uint64_t groups, const DeviceFacts& facts, std::string_view what);

}  // namespace xr::vulkan
