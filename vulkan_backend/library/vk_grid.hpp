// Grids for any number of workgroups, and the integer helpers every plan sizes with.
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

// A count of workgroups or tiles: callers keep it below 2^32 (n / tile).
inline std::uint32_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return static_cast<std::uint32_t>((a + b - 1) / b);
}
// Scratch offsets in elements, kept at four (one vector) so vector loads of a region stay
// aligned.
inline std::uint32_t round_up4(std::uint32_t x) {
  return (x + 3u) & ~3u;
}

}  // namespace xr::vulkan
