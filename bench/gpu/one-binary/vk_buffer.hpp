// A Vulkan buffer with memory of its own: device-local with a device address (what a CUDA
// kernel takes as a pointer, through VK_NVX_binary_import), or host-visible and coherent,
// mapped (staging).
#pragma once

#include <cstdint>

#include "vk_device.hpp"

namespace xr::onebin {

class VulkanBuffer {
 public:
  static VulkanBuffer device_local(const VulkanDevice& d, std::uint64_t bytes);
  static VulkanBuffer staging(const VulkanDevice& d, std::uint64_t bytes);

  vk::Buffer get() const { return *buffer_; }
  std::uint64_t bytes() const { return bytes_; }
  std::uint64_t address() const { return address_; }  // device_local only
  void* mapped() const { return mapped_; }            // staging only

 private:
  VulkanBuffer(const VulkanDevice& d, std::uint64_t bytes, bool device_local);

  vk::raii::Buffer buffer_;
  vk::raii::DeviceMemory memory_;
  std::uint64_t bytes_ = 0;
  std::uint64_t address_ = 0;
  void* mapped_ = nullptr;
};

}  // namespace xr::onebin
