// What a Vulkan reduce of n elements dispatches: the passes (core's chain over partials, or the
// single pass), with their push constants and grids, and the scratch they share. The result is
// one accumulator at element 0 of the caller's output.
#pragma once

#include <cstdint>
#include <vector>

#include "vk_grid.hpp"
#include "vk_pipelines.hpp"
#include "vk_reduce_table.hpp"

namespace xr::vulkan {

struct ReducePlanPass {
  bool from_input = true;  // pass 0 reads the input's elements; the later ones the partials
  bool to_output = false;  // the last pass writes the result to the output
  PushConstants push;
  Grid grid;
};

struct ReducePlan {
  std::vector<ReducePlanPass> passes;
  std::uint64_t scratch_bytes = 16;
};

// n >= 1. Partials are accumulators of `acc_bytes` at 16-byte-aligned (four-element) offsets of
// scratch; fast/single-pass keeps its ticket in scratch's first 16 bytes, its partials after.
ReducePlan plan_reduce(const ReduceSpec& spec, const DeviceFacts& facts, std::uint64_t n,
                       std::size_t acc_bytes);

}  // namespace xr::vulkan
