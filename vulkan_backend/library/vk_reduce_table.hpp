// The Vulkan reduce variants as data: the shader, workgroup size, shape and requirements of each
// id. Shapes shared with CUDA come from core (xreduce/shapes.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vk_device_facts.hpp"
#include "xreduce/backend.hpp"

namespace xr::vulkan {

// How a variant maps n elements to workgroups.
enum class ReduceShape {
  per_block,    // one workgroup per `items * workgroup` elements (2-D dispatch past the 1-D
                // limit), re-dispatched over the partials until one value remains
  grid_stride,  // at most `max_groups` workgroups walk the input; re-dispatched likewise
  single_pass,  // grid-stride, and the last workgroup folds the partials in the same dispatch
};

struct ReduceSpec {
  std::string_view id;      // catalog id
  std::string_view shader;  // algorithm name in shaders/ ("<shader>.<dtype>[.addr]" modules)
  ReduceShape shape = ReduceShape::per_block;
  std::uint32_t workgroup = 256;  // invocations (specialization constant 0), a power of two
  std::uint32_t items = 1;        // elements per invocation per block (per_block) or iteration
  std::uint32_t unroll = 1;       // specialization constant 1 (fast/*: vector loads in flight)
  std::uint32_t max_groups = 0;   // grid_stride/single_pass: workgroups of the first pass
  std::uint32_t needs = 0;        // Need bits (vk_requirements.hpp)
};

// Workgroups of the grid-stride variants' first pass: enough to keep every SM of an H100/H200
// (132 SMs x 8 workgroups of 256) busy in one wave, and few enough that one workgroup folds the
// partials in the second pass. Chosen by that reasoning, then checked, not swept: on an H200
// (driver 580.159.04) fast/vectorized sums 2^28 f32 at 4215 GB/s, 95.0% of the 4435 GB/s the
// read_bandwidth probe measures (`xreduce compare --backend vulkan --n 2^28 --dtype f32`).
inline constexpr std::uint32_t kGridGroups = 1024;

std::span<const ReduceSpec> reduce_table();
const ReduceSpec* find_reduce(std::string_view id);
VariantInfo reduce_info(const ReduceSpec& spec);
// Shared memory of the variant with 4-byte accumulators (vk_requirements.hpp scales it).
std::uint32_t reduce_shared_bytes(const ReduceSpec& spec);
// Why the device cannot run `spec`, in words; empty when it can.
std::string reduce_unsupported_reason(const ReduceSpec& spec, const DeviceFacts& facts);

}  // namespace xr::vulkan
