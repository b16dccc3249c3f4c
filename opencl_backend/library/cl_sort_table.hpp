// The OpenCL sort variants as data: each id's family (core's plans, xreduce/sort_passes.hpp) and
// what it needs of the device. A tile's keys are ranked by NVIDIA's warps where the device has
// them (eight warp ballots by inline PTX) and by counting in local memory elsewhere
// (kernels/sort_tile.cl): nothing beyond OpenCL 1.2's core, so every device runs them.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "xreduce/catalog.hpp"
#include "xreduce/sort_passes.hpp"

namespace xr::opencl {

struct SortSpec {
  std::string_view name;
  SortFamily family = SortFamily::onesweep;
  std::uint32_t needs = 0;        // Need bits (cl_requirements.hpp)
  std::uint32_t threads = 256;    // the smallest work-group its passes take
  std::uint32_t group_bytes = 0;  // the least local memory its tiles take
  std::string_view id() const { return name; }
};

std::span<const SortSpec> sort_table();
inline const SortSpec* find_sort(std::string_view id) {
  return find_row(sort_table(), id);
}

}  // namespace xr::opencl
