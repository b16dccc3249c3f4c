#include "vk_buffer.hpp"

namespace xr::onebin {
namespace {

constexpr vk::BufferUsageFlags kUsage = vk::BufferUsageFlagBits::eStorageBuffer |
                                        vk::BufferUsageFlagBits::eTransferSrc |
                                        vk::BufferUsageFlagBits::eTransferDst;

vk::raii::Buffer make_buffer(const VulkanDevice& d, std::uint64_t bytes, bool device_local) {
  vk::BufferCreateInfo info({}, bytes, kUsage);
  if (device_local) info.usage |= vk::BufferUsageFlagBits::eShaderDeviceAddress;
  return XR_VK(vk::raii::Buffer(d.device(), info));
}

vk::raii::DeviceMemory bind_memory(const VulkanDevice& d, const vk::raii::Buffer& b,
                                   bool device_local) {
  const vk::MemoryRequirements req = b.getMemoryRequirements();
  const vk::MemoryPropertyFlags want =
      device_local
          ? vk::MemoryPropertyFlags(vk::MemoryPropertyFlagBits::eDeviceLocal)
          : vk::MemoryPropertyFlagBits::eHostVisible | vk::MemoryPropertyFlagBits::eHostCoherent;
  const vk::MemoryAllocateFlagsInfo flags(vk::MemoryAllocateFlagBits::eDeviceAddress);
  vk::MemoryAllocateInfo info(req.size, d.memory_type(req.memoryTypeBits, want));
  if (device_local) info.pNext = &flags;
  vk::raii::DeviceMemory m = XR_VK(vk::raii::DeviceMemory(d.device(), info));
  XR_VK(b.bindMemory(*m, 0));
  return m;
}

}  // namespace

VulkanBuffer::VulkanBuffer(const VulkanDevice& d, std::uint64_t bytes, bool device_local)
    : buffer_(make_buffer(d, bytes, device_local)),
      memory_(bind_memory(d, buffer_, device_local)),
      bytes_(bytes) {
  if (device_local)
    address_ = d.device().getBufferAddress(vk::BufferDeviceAddressInfo(*buffer_));
  else
    mapped_ = XR_VK(memory_.mapMemory(0, bytes));
}

VulkanBuffer VulkanBuffer::device_local(const VulkanDevice& d, std::uint64_t bytes) {
  return VulkanBuffer(d, bytes, true);
}

VulkanBuffer VulkanBuffer::staging(const VulkanDevice& d, std::uint64_t bytes) {
  return VulkanBuffer(d, bytes, false);
}

}  // namespace xr::onebin
