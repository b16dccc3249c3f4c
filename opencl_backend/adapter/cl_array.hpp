// Typed device memory of the OpenCL backend: one buffer, written and read by blocking copies,
// with core's kKernelSlackBytes past its n elements that a user's kernel may read (the identity,
// written before each of its calls), as every GPU array of xreduce has.
#pragma once

#include <memory>

#include "cl_device.hpp"
#include "xreduce/sized_array.hpp"

namespace xr::opencl {

// Its serial() keys programs, not its address.
class ClArray final : public SizedArray {
 public:
  ClArray(std::shared_ptr<Device> device, DType t, std::size_t n);
  ClArray(std::shared_ptr<Device> device, HostView data);

  cl_mem buffer() const { return buffer_.get(); }

 private:
  void copy_in(const void* src) override;
  void copy_out(void* dst) const override;

  std::shared_ptr<Device> device_;
  MemOwner buffer_;
};

// `array` as a ClArray of `device`, else Error(usage).
ClArray& device_array(DeviceArray& array, const Device& device);

}  // namespace xr::opencl
