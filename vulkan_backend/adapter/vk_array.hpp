// Device arrays of the Vulkan backend: one device-local buffer per array, reached by the shaders
// through its device address, padded to 16 bytes so vector loads are legal, then the slack of
// core's kKernelSlackBytes that a user's kernel may read past n.
#pragma once

#include <cstdint>
#include <memory>

#include "vk_buffer.hpp"
#include "vk_device.hpp"
#include "xreduce/backend.hpp"

namespace xr::vulkan {

// Largest n of `t` one array may hold on this device (largest_buffer: the device-local heap,
// maxBufferSize, sparse blocks). Shader indices are 64-bit.
std::uint64_t max_elements(const Device& device, DType t);
std::uint64_t max_elements(const DeviceFacts& facts, const VulkanKnobs& knobs, DType t);

// Device memory holding n elements of one dtype. Keeps its device alive.
class VulkanArray final : public DeviceArray {
 public:
  VulkanArray(std::shared_ptr<Device> device, HostView data);
  // Uninitialised: a scan's output.
  VulkanArray(std::shared_ptr<Device> device, DType t, std::size_t n);
  DType dtype() const override { return dtype_; }
  std::size_t size() const override { return size_; }
  void write(HostView src) override;
  void read_into(HostArray& out) const override;

  const Device* device() const { return device_.get(); }
  const Buffer& buffer() const { return buffer_; }
  vk::DeviceAddress address() const { return buffer_.address(); }
  // Unique per array for the life of the process: the key of recorded command buffers, which
  // must never be reused for a later array at the same handle.
  std::uint64_t serial() const { return serial_; }

 private:
  std::shared_ptr<Device> device_;
  DType dtype_;
  std::size_t size_;
  Buffer buffer_;
  std::uint64_t serial_;
};

// `array` as a Vulkan array of `device`, or Error(usage) naming what it is instead.
VulkanArray& device_array(DeviceArray& array, const Device& device);

}  // namespace xr::vulkan
