// xreduce's Vulkan reduce and scan as a library (docs/library.md): a Context over the caller's
// instance, physical device and device. The library makes no instance, device, queue, memory or
// command buffer of its own: it creates pipelines (through the caller's VkPipelineCache if one
// is given) and records into the caller's command buffers.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "xreduce/error.hpp"
#include "xreduce/primitive.hpp"
#include "xreduce/state_ptr.hpp"
#include "xreduce/types.hpp"

namespace xr::vulkan {

struct ContextState;  // the library's own (vk_context.hpp)

// The caller's objects, reached through the system's Vulkan loader (libvulkan.so.1).
// `device_info` is the VkDeviceCreateInfo the device was created with
// (read in the constructor only): its pEnabledFeatures or VkPhysicalDeviceFeatures2 chain and
// its extensions say what the library may use. It needs Vulkan 1.2, bufferDeviceAddress and
// shaderInt64; shaderFloat64, storageBuffer16BitAccess, shaderSubgroupExtendedTypes,
// shaderBufferInt64Atomics, subgroupSizeControl + computeFullSubgroups, VK_KHR_shader_clock,
// VK_KHR_push_descriptor and VK_NV_shader_subgroup_partitioned are used where enabled
// (docs/library.md says for what).
struct ContextInfo {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  const VkDeviceCreateInfo* device_info = nullptr;
  // The VkApplicationInfo::apiVersion the instance was created with: the device's version as
  // the library may use it is the lower of this and the device's own (as VMA asks for it).
  std::uint32_t api_version = VK_API_VERSION_1_2;
  VkPipelineCache pipeline_cache = VK_NULL_HANDLE;  // optional; must outlive the Context
};

class Context {
 public:
  // Throws xr::Error: unsupported (one line naming what the device lacks or was not enabled),
  // usage (a null handle; an api_version that is not Vulkan 1.x; a device_info that is not a
  // VkDeviceCreateInfo, or whose extension names or pNext chain are broken; a physical device
  // that is not the instance's), unavailable (no Vulkan 1.2 function table). Every field is
  // checked before the library calls the driver with it.
  explicit Context(const ContextInfo& info);

  // The device's name, as its properties give it.
  const std::string& device_name() const;
  // Every byte offset of an operand (a buffer's offset or an address) must be a multiple of
  // this: 32 bytes (a vector of four 8-byte elements), or minStorageBufferOffsetAlignment where
  // it is larger.
  VkDeviceSize operand_alignment() const;
  // The variants of `primitive` this device can run over `t` (ScanDesc::variant,
  // ReduceDesc::variant), fastest first as the library's policy orders them.
  std::vector<std::string> variants(Primitive primitive, DType t) const;
  // Whether an SmClock (xreduce/vulkan/clock.hpp) can be made: the device was created with
  // VK_KHR_shader_clock's shaderSubgroupClock and shaderDeviceClock.
  bool clock_supported() const;

  // The library's own state, for its implementation and the tool's adapter (the library's
  // internal interface, vk_internal.hpp): ContextState is declared only, so nothing of it is
  // part of the public API.
  friend ContextState& state_of(const Context& context);

 private:
  explicit Context(std::unique_ptr<ContextState> state);
  friend Context make_context(std::unique_ptr<ContextState> state);
  StatePtr<ContextState> state_;
};

}  // namespace xr::vulkan
