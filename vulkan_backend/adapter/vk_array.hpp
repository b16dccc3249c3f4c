// Device arrays of the Vulkan backend: one device-local buffer per array, reached by the shaders
// through its device address, padded to 16 bytes so vector loads are legal, then the slack of
// core's kKernelSlackBytes that a user's kernel may read past n.
#pragma once

#include <cstdint>
#include <memory>

#include "vk_buffer.hpp"
#include "vk_device.hpp"
#include "xreduce/sized_array.hpp"

namespace xr::vulkan {

// Largest n of `t` one array may hold on this device (largest_buffer: the device-local heap,
// maxBufferSize, sparse blocks). Shader indices are 64-bit.
std::uint64_t max_elements(const Device& device, DType t);
std::uint64_t max_elements(const DeviceFacts& facts, const VulkanKnobs& knobs, DType t);

// Device memory holding n elements of one dtype. Keeps its device alive.
// Its serial() keys recorded command buffers.
class VulkanArray final : public SizedArray {
 public:
  VulkanArray(std::shared_ptr<Device> device, HostView data);
  // Uninitialised: a scan's output.
  VulkanArray(std::shared_ptr<Device> device, DType t, std::size_t n);

  const Device* device() const { return device_.get(); }
  const Buffer& buffer() const { return buffer_; }
  vk::DeviceAddress address() const { return buffer_.address(); }

 private:
  void copy_in(const void* src) override;
  void copy_out(void* dst) const override;

  std::shared_ptr<Device> device_;
  Buffer buffer_;
};

// `array` as a Vulkan array of `device`, or Error(usage) naming what it is instead.
VulkanArray& device_array(DeviceArray& array, const Device& device);

}  // namespace xr::vulkan
