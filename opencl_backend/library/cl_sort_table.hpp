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

namespace sort {
using namespace xr::sort;  // core's schedule vocabulary, beside this API's plan
// Core's row: needs holds Need bits (cl_requirements.hpp), group_bytes local memory.
using Spec = Row;
}  // namespace sort

std::span<const sort::Spec> sort_table();
inline const sort::Spec* find_sort(std::string_view id) {
  return find_row(sort_table(), id);
}

}  // namespace xr::opencl
