// What a caller enabled on its device, read from the VkDeviceCreateInfo it made the device with:
// the features the library's shaders use and the optional extensions.
#pragma once

#include <vulkan/vulkan_core.h>

#include "vk_device_facts.hpp"

namespace xr::vulkan {

struct EnabledFeatures {
  bool shader_int64 = false;
  bool float64 = false;
  bool storage16 = false;
  bool buffer_device_address = false;
  bool int64_atomics = false;  // shaderBufferInt64Atomics
  bool subgroup_extended_types = false;
  bool subgroup_size_control = false;
  bool compute_full_subgroups = false;
  bool subgroup_clock = false;  // shaderSubgroupClock
  bool device_clock = false;    // shaderDeviceClock
  bool clock_extension = false;
  bool push_descriptor_extension = false;
  bool executable_info = false;  // pipelineExecutableInfo
  bool executable_extension = false;
  bool partition_extension = false;  // VK_NV_shader_subgroup_partitioned
};

// Walks info's pEnabledFeatures, its pNext chain (VkPhysicalDeviceFeatures2, the Vulkan 1.1/1.2/
// 1.3 feature structs and the promoted ones) and its extension names.
EnabledFeatures enabled_features(const VkDeviceCreateInfo& info);

// `facts` (what the device supports) cut down to what was enabled; Error(unsupported) where a
// feature every plan needs (bufferDeviceAddress, shaderInt64) was not.
void restrict_to_enabled(DeviceFacts& facts, const EnabledFeatures& enabled);

}  // namespace xr::vulkan
