// What an OpenCL reduce of n elements enqueues: the passes (core's chain over partials, or the
// single pass) and the scratch they share. The result is one accumulator at element 0 of the
// caller's output.
#pragma once

#include <cstdint>
#include <vector>

#include "cl_passes.hpp"
#include "cl_reduce_table.hpp"

namespace xr::opencl {

struct ReducePlan {
  std::vector<Pass> passes;
  std::uint64_t scratch_bytes = 16;
};

// n >= 1. Partials are accumulators at four-element-aligned offsets of scratch; fast/single-pass
// keeps its ticket in scratch's first 16 bytes, its partials after.
ReducePlan plan_reduce(const ReduceSpec& spec, std::uint64_t n, DType dtype, Op op);

}  // namespace xr::opencl
