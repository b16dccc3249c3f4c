// A reduce's plan in Vulkan: core's plan (xreduce/reduce_plan.hpp) with each pass's grid for this
// device. The result is one accumulator at element 0 of the caller's output.
#pragma once

#include <cstdint>
#include <vector>

#include "vk_grid.hpp"
#include "vk_pipelines.hpp"
#include "vk_reduce_table.hpp"
#include "xreduce/reduce_plan.hpp"

namespace xr::vulkan {

struct ReduceDispatch {
  ReducePassPlan pass;  // core's: buffers and push constants
  Grid grid;
};

struct ReduceDispatches {
  std::vector<ReduceDispatch> passes;
  std::uint64_t scratch_bytes = 16;
};

// n >= 1: core's plan of `spec`'s schedule, the grid-stride passes capped at the device's
// one-dimensional dispatch (maxComputeWorkGroupCount[0]), each pass's grid from its groups.
ReduceDispatches reduce_dispatches(const ReduceSpec& spec, const DeviceFacts& facts,
                                   std::uint64_t n, std::size_t acc_bytes);

}  // namespace xr::vulkan
