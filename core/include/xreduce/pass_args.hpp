// One pass of a built-in GPU kernel, as every plan describes it and every API launches it: three
// buffers (source, destination, auxiliary), each the caller's input, its output or the call's
// scratch, and the arguments after them. The plans of core (reduce_plan.hpp, scan_plan.hpp) are
// written in these terms; Vulkan passes the arguments as push constants (shaders/params.glsl),
// OpenCL as kernel arguments (opencl_backend/kernels/common.cl), in this order.
#pragma once

#include <array>
#include <cstdint>

namespace xr {

struct PassArgs {
  std::uint64_t n = 0;           // elements this pass reads
  std::uint32_t in_offset = 0;   // first element of the source this pass uses
  std::uint32_t out_offset = 0;  // first element of the destination this pass writes
  std::uint32_t groups = 0;      // blocks (workgroups) that carry data
  std::uint32_t aux_offset = 0;  // scan: first element of the auxiliary buffer this pass uses
  std::uint32_t flags = 0;       // scan: kScanExclusive | kScanWriteTotals | ...
  std::uint32_t param = 0;       // scan: the pass's own parameter
  std::uint32_t limit = 0;       // scan: the look-back's polls before it falls back
};

// Which of the call's buffers a pass binds as its source, destination and auxiliary buffer.
enum class BufferRole : std::uint8_t { input, output, scratch };
using PassBuffers = std::array<BufferRole, 3>;

inline constexpr PassBuffers kIoBuffers{BufferRole::input, BufferRole::output, BufferRole::scratch};
// The levels above a scan's first: totals and prefixes in scratch.
inline constexpr PassBuffers kScratchBuffers{BufferRole::scratch, BufferRole::scratch,
                                             BufferRole::scratch};
// A 16-bit tiled scan's first level: the input scanned into float accumulators in scratch.
inline constexpr PassBuffers kWideBuffers{BufferRole::input, BufferRole::scratch,
                                          BufferRole::scratch};

// The scan kernels' flags (shaders/scan_common.glsl, opencl_backend/kernels/scan_common.cl).
inline constexpr std::uint32_t kScanExclusive = 1;    // write the exclusive scan
inline constexpr std::uint32_t kScanWriteTotals = 2;  // write each tile's total to aux
inline constexpr std::uint32_t kScanHasPrefix = 4;    // start each chunk from its prefix in aux
inline constexpr std::uint32_t kScanNoWait = 8;       // look-back: never wait, always fall back
inline constexpr std::uint32_t kScanFromWide = 16;    // uniform add: tiles from the float copy

// A count of blocks or tiles: plans keep it below 2^32 (n / tile).
constexpr std::uint32_t ceil_div32(std::uint64_t a, std::uint64_t b) {
  return static_cast<std::uint32_t>((a + b - 1) / b);
}
// Scratch offsets in elements, kept at four (one vector) so vector loads of a region stay
// aligned.
constexpr std::uint32_t round_up4(std::uint32_t x) {
  return (x + 3u) & ~3u;
}

}  // namespace xr
