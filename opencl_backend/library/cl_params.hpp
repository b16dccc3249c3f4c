// The arguments every built-in kernel takes after its three buffers (kernels/common.cl,
// XR_KERNEL), in order: the counterpart of Vulkan's push constants.
#pragma once

#include <cstdint>

namespace xr::opencl {

struct Params {
  std::uint64_t n = 0;           // elements this pass reads
  std::uint32_t in_offset = 0;   // first element of src this pass uses
  std::uint32_t out_offset = 0;  // first element of dst this pass writes
  std::uint32_t groups = 0;      // work-groups that carry data
  std::uint32_t aux_offset = 0;  // scan: first element of aux this pass uses
  std::uint32_t flags = 0;       // scan: kExclusive | kWriteTotals | kHasPrefix | ...
  std::uint32_t param = 0;       // scan: the pass's own parameter
  std::uint32_t limit = 0;       // scan: the look-back's polls before it falls back
};

// kernels/scan_common.cl's flags.
inline constexpr std::uint32_t kExclusiveFlag = 1, kWriteTotals = 2, kHasPrefix = 4, kNoWait = 8,
                               kFromWide = 16;

inline std::uint32_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return static_cast<std::uint32_t>((a + b - 1) / b);
}
inline std::uint32_t round_up4(std::uint32_t x) {
  return (x + 3u) & ~3u;
}

}  // namespace xr::opencl
