// What a Vulkan scan of n elements dispatches, per family: the passes with their shaders,
// operands, push constants and grids, and the scratch they share.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "vk_grid.hpp"
#include "vk_pipelines.hpp"
#include "vk_scan_table.hpp"

namespace xr::vulkan {

// The operands of a pass (shaders/params.glsl: src, dst, aux).
enum ScanOperands : std::size_t {
  io_operands = 0,       // (input, output, scratch)
  scratch_operands = 1,  // (scratch, scratch, scratch): the levels above the first
  wide_operands = 2,     // (input, scratch, scratch): a 16-bit tiled scan's first level
};
inline constexpr std::size_t kScanOperandSets = 3;

// The shader flags of shaders/scan_common.glsl.
inline constexpr std::uint32_t kExclusiveFlag = 1, kWriteTotals = 2, kHasPrefix = 4, kNoWait = 8,
                               kFromWide = 16;

struct ScanPass {
  std::string_view shader;
  std::uint32_t workgroup = 256;
  std::uint32_t unroll = 1;   // specialization constant 1
  std::uint32_t backoff = 0;  // specialization constant 2
  std::uint32_t mode = 0;     // specialization constant 4 (scan_lookback.comp)
  ScanOperands operands = io_operands;
  PushConstants push;
  Grid grid;
  bool takes_kind = false;  // the pass writes the caller's output: exclusive when the call is
};

struct ScanPlan {
  std::vector<ScanPass> passes;
  std::uint64_t scratch_bytes = 16;
  std::optional<std::uint64_t> fallbacks_at;  // look-back: bytes into scratch of the count
  std::uint32_t tiles = 0;                    // look-back: tiles of one call
};

// Elements a lane takes per vector of the fast/* scan tiles (shaders/scan_vector_tile.glsl): 4,
// or 8 of the 16-bit types (one 16-byte vector, as CUDA's lanes take).
std::uint32_t lane_elements(DType t);

// n >= 1. Scratch holds accumulators (accumulator_of: float for f16/bf16).
ScanPlan plan_scan(const ScanSpec& spec, const DeviceFacts& facts, std::uint64_t n, DType t,
                   const LookBackPolicy& lookback);

}  // namespace xr::vulkan
