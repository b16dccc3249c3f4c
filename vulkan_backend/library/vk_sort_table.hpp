// The Vulkan sort variants as data: each id's family (core's plans, xreduce/sort_passes.hpp) and
// what it needs of the device. The radix sorts rank a tile's keys by subgroup ballots where the
// device has them (ballot_needs), by counting in shared memory otherwise (shaders/sort_tile.glsl);
// the bitonic sort compares items in shared memory.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "vk_requirements.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/sort_passes.hpp"

namespace xr::vulkan {

namespace sort {
using namespace xr::sort;  // core's schedule vocabulary, beside this API's plan
// Core's row (needs: Need bits), and what ranking by subgroup ballots needs (0: it ranks no tile).
struct Spec : Row {
  std::uint32_t ballot_needs = 0;
};
}  // namespace sort

std::span<const sort::Spec> sort_table();
inline const sort::Spec* find_sort(std::string_view id) {
  return find_row(sort_table(), id);
}

}  // namespace xr::vulkan
