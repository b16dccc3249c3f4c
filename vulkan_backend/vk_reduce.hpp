// The reduce half of the Vulkan dispatch layer: the variant table (data: shader, workgroup size,
// shape, requirements) and the reducers that plan passes, record them once into one command
// buffer per (array, n, op, dtype) and resubmit it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vk_context.hpp"
#include "xreduce/backend.hpp"

namespace xr::vulkan {

// How a variant maps n elements to workgroups.
enum class Shape {
  per_block,    // one workgroup per `items * workgroup` elements (2-D dispatch past the 1-D
                // limit), re-dispatched over the partials until one value remains
  grid_stride,  // at most `max_groups` workgroups walk the input; re-dispatched likewise
  single_pass,  // grid-stride, and the last workgroup folds the partials in the same dispatch
};

// One row of the variant table. Tuned numbers carry the measurement that chose them.
struct VariantSpec {
  std::string_view id;      // catalog id
  std::string_view shader;  // algorithm name in shaders/ ("<shader>.<dtype>.<op>" modules)
  Shape shape;
  std::uint32_t workgroup;   // invocations (specialization constant 0), a power of two
  std::uint32_t items;       // elements per invocation per block (per_block) or per iteration
  std::uint32_t unroll;      // specialization constant 1 (fast/*: vector loads in flight)
  std::uint32_t max_groups;  // grid_stride/single_pass: workgroups of the first pass
  std::uint32_t needs;       // Need bits (vk_requirements.hpp)
};

// Workgroups of the grid-stride variants' first pass: enough to keep every SM of an H100/H200
// (132 SMs x 8 workgroups of 256) busy in one wave, and few enough that one workgroup folds the
// partials in the second pass. Chosen by that reasoning, then checked, not swept: on an H200
// (driver 580.159.04) fast/vectorized sums 2^28 f32 at 4215 GB/s, 95.0% of the 4435 GB/s the
// read_bandwidth probe measures (`xreduce compare --backend vulkan --n 2^28 --dtype f32`).
inline constexpr std::uint32_t kGridGroups = 1024;

std::span<const VariantSpec> variant_table();
const VariantSpec* find_variant(std::string_view id);
std::vector<VariantInfo> variant_infos();
// Why the device cannot run `spec`, in words; empty when it can.
std::string unsupported_reason(const VariantSpec& spec, const DeviceFacts& facts);

std::unique_ptr<Reducer> make_reducer(std::shared_ptr<Device> device, const VariantSpec& spec);

}  // namespace xr::vulkan
