#include "vk_grid.hpp"

#include <algorithm>
#include <string>

#include "xreduce/error.hpp"

namespace xr::vulkan {

Grid grid_for(std::uint64_t groups, const DeviceFacts& f, std::string_view what) {
  const auto& max_count = f.limits.maxComputeWorkGroupCount;
  Grid g;
  g.x = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(std::max<std::uint64_t>(groups, 1), max_count[0]));
  const std::uint64_t y = (groups + g.x - 1) / g.x;
  if (y > max_count[1])
    throw Error(ErrorCategory::unsupported,
                std::string(what) + ": " + std::to_string(groups) +
                    " workgroups exceed this device's maxComputeWorkGroupCount");
  g.y = static_cast<std::uint32_t>(std::max<std::uint64_t>(y, 1));
  return g;
}

}  // namespace xr::vulkan
