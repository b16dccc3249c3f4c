// The OpenCL reduce variants as data: the kernel and requirements of each id, the same ids and
// algorithms as CUDA's and Vulkan's; each id's schedule is core's (xreduce/reduce_plan.hpp).
#pragma once

#include <span>
#include <string_view>

#include "cl_device_facts.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/reduce_plan.hpp"

namespace xr::opencl {

// A reduce id in OpenCL: its program is kernels/<program>.cl, its needs cl_requirements's bits.
using ReduceSpec = ReduceRow;

std::span<const ReduceSpec> reduce_table();
inline const ReduceSpec* find_reduce(std::string_view id) {
  return find_row(reduce_table(), id);
}

}  // namespace xr::opencl
