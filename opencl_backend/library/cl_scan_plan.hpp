// What an OpenCL scan of n elements enqueues, per family: the passes with their kernels, buffers
// and arguments, and the scratch they share (Vulkan's vk_scan_plan, pass for pass).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "cl_passes.hpp"
#include "cl_scan_table.hpp"

namespace xr::opencl {

struct ScanPlan {
  std::vector<Pass> passes;
  std::uint64_t scratch_bytes = 16;
  bool zero_scratch = false;                  // the look-back: status words start at zero
  std::optional<std::uint64_t> fallbacks_at;  // look-back: bytes into scratch of the count
};

// Elements a lane takes per vector of the fast/* scan tiles: 4, or 8 of the 16-bit types.
std::uint32_t lane_elements(DType t);

// n >= 1. Scratch holds accumulators (float for f16/bf16).
ScanPlan plan_scan(const ScanSpec& spec, std::uint64_t n, DType t, Op op, ScanKind kind,
                   const LookBackPolicy& lookback, std::size_t max_work_group);

}  // namespace xr::opencl
