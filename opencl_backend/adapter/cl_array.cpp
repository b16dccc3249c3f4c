#include "cl_array.hpp"

#include "cl_internal.hpp"
#include "xreduce/call_check.hpp"
#include "xreduce/user_kernel.hpp"

namespace xr::opencl {

ClArray::ClArray(std::shared_ptr<Device> device, DType t, std::size_t n)
    : SizedArray(t, n),
      device_(std::move(device)),
      buffer_(make_buffer(*device_, std::uint64_t{n} * size_of(t) + kKernelSlackBytes)) {}

ClArray::ClArray(std::shared_ptr<Device> device, HostView data)
    : ClArray(std::move(device), data.dtype, data.size) {
  write(data);
}

void ClArray::copy_in(const void* src) {
  device_->write(buffer_.get(), 0, bytes(), src);
}

void ClArray::copy_out(void* dst) const {
  device_->read(buffer_.get(), 0, bytes(), dst);
}

ClArray& device_array(DeviceArray& array, const Device& device) {
  ClArray& a = own_array<ClArray>(array, "opencl");
  (void)device;
  return a;
}

}  // namespace xr::opencl
