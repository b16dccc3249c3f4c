// The Vulkan reduce variants as data: the shader and requirements of each id; its schedule (tile,
// shape, passes) is core's (xreduce/reduce_plan.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vk_device_facts.hpp"
#include "xreduce/backend.hpp"
#include "xreduce/reduce_plan.hpp"

namespace xr::vulkan {

// A reduce id in Vulkan: core's schedule (xreduce/reduce_plan.hpp), the shader that runs it and
// what it needs of the device.
struct ReduceSpec {
  ReduceSchedule schedule;
  std::string_view shader;  // algorithm name in shaders/ ("<shader>.<dtype>[.addr]" modules)
  std::uint32_t needs = 0;  // Need bits (vk_requirements.hpp)
  std::string_view id() const { return schedule.id; }
};

std::span<const ReduceSpec> reduce_table();
const ReduceSpec* find_reduce(std::string_view id);
VariantInfo reduce_info(const ReduceSpec& spec);
// Shared memory of the variant with 4-byte accumulators (vk_requirements.hpp scales it).
std::uint32_t reduce_shared_bytes(const ReduceSpec& spec);
// Why the device cannot run `spec`, in words; empty when it can.
std::string reduce_unsupported_reason(const ReduceSpec& spec, const DeviceFacts& facts);

}  // namespace xr::vulkan
