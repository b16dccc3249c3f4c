// The Vulkan reduce variants as data: the shader and requirements of each id; its schedule (tile,
// shape, passes) is core's (xreduce/reduce_plan.hpp).
#pragma once

#include <span>
#include <string_view>

#include "xreduce/catalog.hpp"
#include "xreduce/reduce_plan.hpp"

namespace xr::vulkan {

// A reduce id in Vulkan: its program is the shaders/ algorithm of the "<program>.<dtype>[.addr]"
// modules, its needs vk_requirements' bits.
using ReduceSpec = ReduceRow;

std::span<const ReduceSpec> reduce_table();
inline const ReduceSpec* find_reduce(std::string_view id) {
  return find_row(reduce_table(), id);
}

}  // namespace xr::vulkan
