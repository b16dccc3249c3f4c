// A reduce's plan in OpenCL: core's plan (xreduce/reduce_plan.hpp), each pass a launch of the
// variant's kernel built for what it reads (the input's type, then the accumulator's). The result
// is one accumulator at element 0 of the caller's output.
#pragma once

#include <cstdint>

#include "cl_passes.hpp"
#include "cl_reduce_table.hpp"

namespace xr::opencl {

// n >= 1.
Launches reduce_launches(const ReduceSpec& spec, std::uint64_t n, DType dtype, Op op);

}  // namespace xr::opencl
