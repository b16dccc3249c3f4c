#include "vk_enabled_features.hpp"

#include <cstring>
#include <string>

#include "xreduce/error.hpp"

namespace xr::vulkan {
namespace {

void read_10(EnabledFeatures& e, const VkPhysicalDeviceFeatures& f) {
  e.shader_int64 |= f.shaderInt64 == VK_TRUE;
  e.float64 |= f.shaderFloat64 == VK_TRUE;
}

// One struct of the chain; the ones the library does not read are skipped.
void read_struct(EnabledFeatures& e, const VkBaseInStructure* s) {
  switch (s->sType) {
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2:
      read_10(e, reinterpret_cast<const VkPhysicalDeviceFeatures2*>(s)->features);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES:
      e.storage16 |=
          reinterpret_cast<const VkPhysicalDeviceVulkan11Features*>(s)->storageBuffer16BitAccess ==
          VK_TRUE;
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: {
      const auto* f = reinterpret_cast<const VkPhysicalDeviceVulkan12Features*>(s);
      e.buffer_device_address |= f->bufferDeviceAddress == VK_TRUE;
      e.int64_atomics |= f->shaderBufferInt64Atomics == VK_TRUE;
      e.subgroup_extended_types |= f->shaderSubgroupExtendedTypes == VK_TRUE;
      break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES: {
      const auto* f = reinterpret_cast<const VkPhysicalDeviceVulkan13Features*>(s);
      e.subgroup_size_control |= f->subgroupSizeControl == VK_TRUE;
      e.compute_full_subgroups |= f->computeFullSubgroups == VK_TRUE;
      break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES:
      e.storage16 |= reinterpret_cast<const VkPhysicalDevice16BitStorageFeatures*>(s)
                         ->storageBuffer16BitAccess == VK_TRUE;
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES:
      e.buffer_device_address |=
          reinterpret_cast<const VkPhysicalDeviceBufferDeviceAddressFeatures*>(s)
              ->bufferDeviceAddress == VK_TRUE;
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES:
      e.int64_atomics |= reinterpret_cast<const VkPhysicalDeviceShaderAtomicInt64Features*>(s)
                             ->shaderBufferInt64Atomics == VK_TRUE;
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES:
      e.subgroup_extended_types |=
          reinterpret_cast<const VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures*>(s)
              ->shaderSubgroupExtendedTypes == VK_TRUE;
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES: {
      const auto* f = reinterpret_cast<const VkPhysicalDeviceSubgroupSizeControlFeatures*>(s);
      e.subgroup_size_control |= f->subgroupSizeControl == VK_TRUE;
      e.compute_full_subgroups |= f->computeFullSubgroups == VK_TRUE;
      break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR: {
      const auto* f = reinterpret_cast<const VkPhysicalDeviceShaderClockFeaturesKHR*>(s);
      e.subgroup_clock |= f->shaderSubgroupClock == VK_TRUE;
      e.device_clock |= f->shaderDeviceClock == VK_TRUE;
      break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR:
      e.executable_info |=
          reinterpret_cast<const VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR*>(s)
              ->pipelineExecutableInfo == VK_TRUE;
      break;
    default:
      break;
  }
}

// The feature the device was made without, and what needs it: every reduce and scan; of the
// sorts, those past one binding or 2^32 - 2^16 keys (their arrays by address, with 64-bit
// indices) and, for shaderInt64, every sort of 64-bit keys. The other sorts bind their arrays.
std::string missing_feature(const EnabledFeatures& e) {
  const std::string past_binding =
      "a radix sort whose keys or values pass one storage-buffer binding (maxStorageBufferRange) "
      "or 2^32 - 2^16 keys";
  if (!e.buffer_device_address)
    return "bufferDeviceAddress, which every reduce and scan needs, and " + past_binding;
  return "shaderInt64, which every reduce and scan needs, every sort of 64-bit keys, and " +
         past_binding;
}

}  // namespace

EnabledFeatures enabled_features(const VkDeviceCreateInfo& info) {
  EnabledFeatures e;
  if (info.pEnabledFeatures) read_10(e, *info.pEnabledFeatures);
  for (auto* s = static_cast<const VkBaseInStructure*>(info.pNext); s; s = s->pNext)
    read_struct(e, s);
  for (std::uint32_t i = 0; i < info.enabledExtensionCount; ++i) {
    const char* name = info.ppEnabledExtensionNames[i];
    e.clock_extension |= std::strcmp(name, VK_KHR_SHADER_CLOCK_EXTENSION_NAME) == 0;
    e.push_descriptor_extension |= std::strcmp(name, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) == 0;
    e.executable_extension |=
        std::strcmp(name, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME) == 0;
    e.partition_extension |=
        std::strcmp(name, VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME) == 0;
  }
  return e;
}

void restrict_to_enabled(DeviceFacts& f, const EnabledFeatures& e) {
  if (!e.buffer_device_address || !e.shader_int64)
    throw Error(ErrorCategory::unsupported,
                "xreduce::vulkan: the device was created without " + missing_feature(e) +
                    ": enable bufferDeviceAddress (VkPhysicalDeviceVulkan12Features) and "
                    "shaderInt64 (docs/library.md)");
  f.float64 = f.float64 && e.float64;
  f.storage16 = f.storage16 && e.storage16;
  f.subgroup_extended_types = f.subgroup_extended_types && e.subgroup_extended_types;
  f.int64_atomics = f.int64_atomics && e.int64_atomics;
  f.full_subgroups = f.full_subgroups && e.subgroup_size_control && e.compute_full_subgroups;
  f.shader_clock = f.shader_clock && e.clock_extension && e.subgroup_clock;
  f.device_clock = f.device_clock && f.shader_clock && e.device_clock;
  f.push_descriptors = f.push_descriptors && e.push_descriptor_extension;
  f.executable_statistics = f.executable_statistics && e.executable_extension && e.executable_info;
  f.subgroup_partitioned = f.subgroup_partitioned && e.partition_extension;
  f.sparse_binding = false;  // the caller's buffers, not ours
}

}  // namespace xr::vulkan
