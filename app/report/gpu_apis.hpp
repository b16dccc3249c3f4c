// xreduce's own GPU APIs, in the order every report shows them. The first is the anchor: each
// of the others is compared with it variant by variant, and follows its device (compare_plan).
// The CPU and merged peers (torch, cupy) are not among them.
#pragma once

#include <algorithm>
#include <array>
#include <span>
#include <string_view>

namespace xr::app {

inline constexpr std::array<std::string_view, 3> kGpuApis{"cuda", "vulkan", "opencl"};
inline constexpr std::string_view kAnchorApi = kGpuApis.front();

// The GPU APIs compared with the anchor, in report order.
constexpr std::span<const std::string_view> compared_apis() {
  return std::span(kGpuApis).subspan(1);
}

inline bool is_gpu_api(std::string_view backend) {
  return std::find(kGpuApis.begin(), kGpuApis.end(), backend) != kGpuApis.end();
}

}  // namespace xr::app
