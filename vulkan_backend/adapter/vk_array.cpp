#include "vk_array.hpp"

#include <algorithm>

#include "xreduce/call_check.hpp"
#include "xreduce/error.hpp"
#include "xreduce/user_kernel.hpp"

namespace xr::vulkan {
namespace {

// The elements, rounded to 16 bytes, then the slack a user's kernel may read past n
// (kKernelSlackBytes: the identity, written before each of its calls).
vk::DeviceSize array_bytes(DType t, std::size_t n) {
  return ((n * size_of(t) + 15) & ~vk::DeviceSize{15}) + kKernelSlackBytes;
}

}  // namespace

std::uint64_t max_elements(const DeviceFacts& facts, const VulkanKnobs& knobs, DType t) {
  const std::uint64_t bytes = largest_buffer(facts, knobs).bytes;
  return bytes > kKernelSlackBytes + 16 ? (bytes - kKernelSlackBytes - 16) / size_of(t) : 0;
}

std::uint64_t max_elements(const Device& device, DType t) {
  return max_elements(device.facts(), device.knobs(), t);
}

VulkanArray& device_array(DeviceArray& array, const Device& device) {
  VulkanArray& a = own_array<VulkanArray>(array, "vulkan");
  if (a.device() != &device)
    throw Error(ErrorCategory::usage, "vulkan variant given an array of another device");
  return a;
}

VulkanArray::VulkanArray(std::shared_ptr<Device> device, DType t, std::size_t n)
    : SizedArray(t, n),
      device_(std::move(device)),
      buffer_(*device_, array_bytes(t, n), kStorageUsage, MemoryKind::device_local) {}

VulkanArray::VulkanArray(std::shared_ptr<Device> device, HostView data)
    : VulkanArray(std::move(device), data.dtype, data.size) {
  write(data);
}

void VulkanArray::copy_in(const void* src) {
  device_->raise_validation();
  device_->write_buffer(buffer_, src, bytes());
  device_->raise_validation();
}

void VulkanArray::copy_out(void* dst) const {
  device_->raise_validation();
  device_->read_buffer(buffer_, dst, bytes());
  device_->raise_validation();
}

}  // namespace xr::vulkan
