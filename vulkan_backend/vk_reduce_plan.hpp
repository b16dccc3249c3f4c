// What a Vulkan reduce of n elements dispatches: the passes (core's chain over partials, or the
// single pass), with their push constants and grids, and where the result lands in scratch.
#pragma once

#include <cstdint>
#include <vector>

#include "vk_commands.hpp"
#include "vk_reduce_table.hpp"

namespace xr::vulkan {

struct ReducePlanPass {
  bool from_input = true;  // pass 0 reads the input's elements; the later ones the partials
  PushConstants push;
  Grid grid;
};

struct ReducePlan {
  std::vector<ReducePlanPass> passes;
  std::uint32_t result_at = 0;         // scratch element holding the result (an accumulator)
  std::uint64_t scratch_elements = 0;  // accumulators of scratch
};

// n >= 1. Partials are accumulators at 16-byte-aligned (four-element) offsets of scratch.
ReducePlan plan_reduce(const ReduceSpec& spec, const DeviceFacts& facts, std::uint64_t n);

}  // namespace xr::vulkan
