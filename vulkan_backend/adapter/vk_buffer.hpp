// Move-only buffers with their memory: device-local storage (bound sparsely to several blocks
// past one allocation), host-visible staging and read-back, each with its device address.
#pragma once

#include <cstdint>
#include <string>
#include <vector>
#include "vk_internal.hpp"

namespace xr::vulkan {

class Device;

enum class MemoryKind {
  device_local,  // storage buffers the shaders read and write
  upload,        // host-visible, coherent: staging for uploads
  readback,      // host-visible, coherent, cached where possible: results and downloads
};

// The largest buffer an array may be on a device, and why, in words for `list`.
struct BufferLimit {
  std::uint64_t bytes = 0;
  std::string why;
};
BufferLimit largest_buffer(const DeviceFacts& facts, const VulkanKnobs& knobs);

// The largest allocation one block of a buffer may be: maxMemoryAllocationSize, or the
// XR_VK_BLOCK_BYTES knob below it. 0: no limit reported.
std::uint64_t block_limit(const DeviceFacts& facts, const VulkanKnobs& knobs);

// Usage of every buffer the shaders reach (arrays, scratch, probes): by device address, and
// transfers fill, upload and read it back; a sort's scratch also holds its indirect grids.
inline constexpr vk::BufferUsageFlags kStorageUsage =
    vk::BufferUsageFlagBits::eStorageBuffer | vk::BufferUsageFlagBits::eShaderDeviceAddress |
    vk::BufferUsageFlagBits::eTransferSrc | vk::BufferUsageFlagBits::eTransferDst |
    vk::BufferUsageFlagBits::eIndirectBuffer;

// A buffer with its own memory and, for shader access, its device address. Device-local
// buffers larger than one allocation may be (block_limit) are bound sparsely to several blocks
// where the device has sparseBinding: the shaders still see one contiguous range of addresses.
// Move-only through its RAII members. Host-visible kinds stay mapped for their lifetime.
class Buffer {
 public:
  // Error(out_of_memory) when an allocation fails; Error(unsupported) when the buffer exceeds
  // maxBufferSize.
  Buffer(Device& device, vk::DeviceSize bytes, vk::BufferUsageFlags usage, MemoryKind kind);
  vk::Buffer handle() const { return *buffer_; }
  vk::DeviceSize size() const { return size_; }
  void* mapped() const { return mapped_; }
  // Device address of byte 0 (0 unless the usage holds eShaderDeviceAddress).
  vk::DeviceAddress address() const { return address_; }
  std::size_t blocks() const { return memory_.size(); }

 private:
  void bind_whole(Device& device, const vk::MemoryRequirements& req, std::uint32_t type,
                  bool addressed);
  void bind_sparsely(Device& device, const vk::MemoryRequirements& req, std::uint32_t type,
                     vk::DeviceSize block);

  vk::raii::Buffer buffer_{nullptr};
  std::vector<vk::raii::DeviceMemory> memory_;
  vk::DeviceSize size_ = 0;
  void* mapped_ = nullptr;
  vk::DeviceAddress address_ = 0;
};

}  // namespace xr::vulkan
