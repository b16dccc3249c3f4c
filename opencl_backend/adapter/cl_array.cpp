#include "cl_array.hpp"

#include <atomic>

#include "cl_internal.hpp"
#include "xreduce/call_check.hpp"
#include "xreduce/user_kernel.hpp"

namespace xr::opencl {
namespace {

std::uint64_t next_serial() {
  static std::atomic<std::uint64_t> serial{0};
  return ++serial;
}

}  // namespace

ClArray::ClArray(std::shared_ptr<Device> device, DType t, std::size_t n)
    : device_(std::move(device)),
      dtype_(t),
      size_(n),
      buffer_(make_buffer(*device_, std::uint64_t{n} * size_of(t) + kKernelSlackBytes)),
      serial_(next_serial()) {}

ClArray::ClArray(std::shared_ptr<Device> device, HostView data)
    : ClArray(std::move(device), data.dtype, data.size) {
  write(data);
}

void ClArray::write(HostView src) {
  if (src.dtype != dtype_ || src.size != size_)
    throw Error(ErrorCategory::usage, "opencl array write: dtype or size differs");
  if (size_ == 0) return;
  device_->write(buffer_.get(), 0, bytes(), src.data);
}

void ClArray::read_into(HostArray& dst) const {
  if (dst.dtype() != dtype_ || dst.size() != size_)
    throw Error(ErrorCategory::usage, "opencl array read: dtype or size differs");
  if (size_ == 0) return;
  device_->read(buffer_.get(), 0, bytes(), dst.data());
}

ClArray& device_array(DeviceArray& array, const Device& device) {
  ClArray& a = own_array<ClArray>(array, "opencl");
  (void)device;
  return a;
}

}  // namespace xr::opencl
