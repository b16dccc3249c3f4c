// Vulkan on the CUDA device (found by its UUID): an instance, the device with
// VK_NVX_binary_import (CUDA's modules and launches in a command buffer) and bufferDeviceAddress
// (the kernels' pointers are buffers' device addresses), and a compute queue with timestamps.
#pragma once

#include <cstdint>
#include <string>

#include "cuda_device.hpp"
#include "vk_check.hpp"

namespace xr::onebin {

class VulkanDevice {
 public:
  // Error(unavailable) when no Vulkan device has the UUID or it lacks VK_NVX_binary_import.
  explicit VulkanDevice(const DeviceUuid& uuid);

  const vk::raii::Device& device() const { return device_; }
  const vk::raii::Queue& queue() const { return queue_; }
  std::uint32_t family() const { return family_; }
  // Nanoseconds per timestamp tick, and the ticks' valid bits.
  double timestamp_ns() const { return timestamp_ns_; }
  std::uint64_t timestamp_mask() const { return timestamp_mask_; }
  std::uint32_t memory_type(std::uint32_t allowed, vk::MemoryPropertyFlags want) const;
  // "NVIDIA H200, driver 580.159.4, VK_NV_cuda_kernel_launch not offered"
  const std::string& describe() const { return describe_; }

 private:
  vk::raii::Context context_;
  vk::raii::Instance instance_;
  vk::raii::PhysicalDevice physical_;
  std::uint32_t family_ = 0;
  vk::raii::Device device_;
  vk::raii::Queue queue_;
  double timestamp_ns_ = 1;
  std::uint64_t timestamp_mask_ = ~0ull;
  std::string describe_;
};

}  // namespace xr::onebin
