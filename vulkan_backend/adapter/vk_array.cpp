#include "vk_array.hpp"

#include <algorithm>
#include <atomic>

#include "xreduce/call_check.hpp"
#include "xreduce/error.hpp"
#include "xreduce/user_kernel.hpp"

namespace xr::vulkan {
namespace {

std::atomic<std::uint64_t> g_next_serial{1};

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
    : device_(std::move(device)),
      dtype_(t),
      size_(n),
      buffer_(*device_, array_bytes(t, n), kStorageUsage, MemoryKind::device_local),
      serial_(g_next_serial++) {}

VulkanArray::VulkanArray(std::shared_ptr<Device> device, HostView data)
    : VulkanArray(std::move(device), data.dtype, data.size) {
  device_->write_buffer(buffer_, data.data, data.bytes());
  device_->raise_validation();
}

void VulkanArray::write(HostView src) {
  if (src.dtype != dtype_ || src.size != size_)
    throw Error(ErrorCategory::usage, "DeviceArray::write: dtype or size differs from the array");
  device_->raise_validation();
  device_->write_buffer(buffer_, src.data, src.bytes());
  device_->raise_validation();
}

void VulkanArray::read_into(HostArray& out) const {
  if (out.dtype() != dtype_ || out.size() != size_)
    throw Error(ErrorCategory::usage,
                "DeviceArray::read_into: dtype or size differs from the array");
  device_->raise_validation();
  device_->read_buffer(buffer_, out.data(), out.bytes());
  device_->raise_validation();
}

}  // namespace xr::vulkan
