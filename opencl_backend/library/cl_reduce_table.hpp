// The OpenCL reduce variants as data: the kernel, work-group size, shape and requirements of each
// id, the same ids and algorithms as CUDA's and Vulkan's, with shapes from core
// (xreduce/shapes.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "cl_device_facts.hpp"
#include "xreduce/backend.hpp"

namespace xr::opencl {

// How a variant maps n elements to work-groups.
enum class ReduceShape {
  per_block,    // one work-group per `items * workgroup` elements, re-run over the partials
  grid_stride,  // at most `max_groups` work-groups walk the input; re-run likewise
  single_pass,  // grid-stride, and the last work-group folds the partials in the same launch
};

struct ReduceSpec {
  std::string_view id;      // catalog id
  std::string_view kernel;  // kernels/<kernel>.cl
  ReduceShape shape = ReduceShape::per_block;
  std::uint32_t workgroup = 256;  // work-items (-DWG), a power of two
  std::uint32_t items = 1;        // elements per work-item per block (per_block) or iteration
  std::uint32_t unroll = 1;       // -DUNROLL (fast/*: vector loads in flight)
  std::uint32_t max_groups = 0;   // grid_stride/single_pass: work-groups of the first pass
  std::uint32_t needs = 0;        // Need bits (cl_requirements.hpp)
};

// Work-groups of the grid-stride variants' first pass: Vulkan's kGridGroups (1024: every SM of
// an H100/H200 busy in one wave of 8 groups of 256, and one group folds the partials after).
inline constexpr std::uint32_t kGridGroups = 1024;

std::span<const ReduceSpec> reduce_table();
const ReduceSpec* find_reduce(std::string_view id);
VariantInfo reduce_info(const ReduceSpec& spec);
// Local memory of the variant with 4-byte accumulators.
std::uint32_t reduce_local_bytes(const ReduceSpec& spec);
// Why the device cannot run `spec`, in words; empty when it can.
std::string reduce_unsupported_reason(const ReduceSpec& spec, const DeviceFacts& facts);

}  // namespace xr::opencl
