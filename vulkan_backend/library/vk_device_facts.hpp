// What the backend knows about one physical device: queried once when the instance is made
// (query_facts), then put in words for `xreduce list` (describe_facts).
#pragma once

#include <cstdint>
#include <string>
#include "vk_hpp.hpp"

#include "vk_knobs.hpp"
#include "xreduce/backend.hpp"

namespace xr::vulkan {

struct DeviceFacts {
  vk::raii::PhysicalDevice physical{nullptr};
  DeviceInfo info;              // its properties are describe_facts' words
  std::string unusable_reason;  // empty when the device can run every plan (see query_facts)
  std::uint32_t api_version = 0;
  vk::PhysicalDeviceType type = vk::PhysicalDeviceType::eOther;
  vk::PhysicalDeviceLimits limits;
  std::uint32_t queue_family = 0;
  std::uint32_t timestamp_valid_bits = 0;  // 0: no timestamps on the compute queue
  std::uint32_t subgroup_size = 0;
  std::uint32_t min_subgroup_size = 0;
  std::uint32_t max_subgroup_size = 0;
  vk::SubgroupFeatureFlags subgroup_ops;  // empty when subgroups are not supported in compute
  bool memory_model = false;              // vulkanMemoryModel + ...DeviceScope (listed only)
  bool full_subgroups = false;            // subgroupSizeControl + computeFullSubgroups
  bool int64_atomics = false;             // shaderInt64 + shaderBufferInt64Atomics (enabled)
  bool shader_clock = false;  // VK_KHR_shader_clock + shaderSubgroupClock (enabled when present)
  bool device_clock = false;  // VK_KHR_shader_clock's shaderDeviceClock (the SM clock probe)
  bool push_descriptors = false;  // VK_KHR_push_descriptor (enabled when present)
  // Which of NVIDIA's extensions that launch CUDA binaries the driver offers:
  // VK_NV_cuda_kernel_launch (read), VK_NVX_binary_import (the tool's device enables it).
  bool cuda_kernel_launch = false;
  bool binary_import = false;
  // VK_NV_shader_subgroup_partitioned with its subgroup operation in compute (enabled when
  // present): subgroup/aggregated's histogram matches a bin's invocations by subgroupPartitionNV.
  bool subgroup_partitioned = false;
  // Invocations resident at once, where the driver tells (VK_NV_shader_sm_builtins: SMs x warps
  // an SM x 32); 0 elsewhere. A histogram's wave of workgroups.
  std::uint32_t resident_invocations = 0;
  // VK_KHR_pipeline_executable_properties' pipelineExecutableInfo (enabled when present): every
  // pipeline is made with its statistics kept, for `xreduce inspect` and Scan/Reduce::compiled().
  bool executable_statistics = false;
  // Element types beyond the 32-bit ones (each enabled when present): f64 arithmetic, f16/bf16
  // elements in storage buffers (their arithmetic is float), 64-bit integer subgroup operands.
  bool float64 = false;                  // shaderFloat64
  bool storage16 = false;                // storageBuffer16BitAccess
  bool subgroup_extended_types = false;  // Vulkan 1.2 shaderSubgroupExtendedTypes
  bool timeline_semaphore = false;       // Vulkan 1.2 timelineSemaphore (enabled when present)
  bool sparse_binding = false;       // sparseBinding on the compute queue: arrays in several blocks
  std::uint64_t max_allocation = 0;  // maxMemoryAllocationSize (0: not reported)
  std::uint64_t max_buffer = 0;      // maxBufferSize (Vulkan 1.3; 0: not reported)
  std::uint64_t sparse_address_space = 0;
  std::uint64_t device_local_bytes = 0;

  bool timestamps() const { return timestamp_valid_bits > 0; }
  bool cpu() const { return type == vk::PhysicalDeviceType::eCpu; }
};

// The facts of device `index`. A device without Vulkan 1.2, a compute queue,
// bufferDeviceAddress or shaderInt64 (every operand is reached by address with 64-bit indices)
// gets an unusable_reason and only the facts read up to it.
// `api_cap`: the instance's apiVersion; the device's effective version is the lower of the two
// (what the 1.3 queries and features depend on).
DeviceFacts query_facts(vk::raii::PhysicalDevice physical, int index, std::uint32_t api_cap);
// Fills facts.info.properties, in `list`'s order; `largest_array` says how large an array the
// backend makes (vk_buffer.hpp's largest_buffer, which depends on the knobs).
void describe_facts(DeviceFacts& facts, const std::string& largest_array);

}  // namespace xr::vulkan
