// Typed device memory of the OpenCL backend: one buffer, written and read by blocking copies,
// with core's kKernelSlackBytes past its n elements that a user's kernel may read (the identity,
// written before each of its calls), as every GPU array of xreduce has.
#pragma once

#include <memory>

#include "cl_device.hpp"
#include "xreduce/backend.hpp"

namespace xr::opencl {

class ClArray final : public DeviceArray {
 public:
  ClArray(std::shared_ptr<Device> device, DType t, std::size_t n);
  ClArray(std::shared_ptr<Device> device, HostView data);

  DType dtype() const override { return dtype_; }
  std::size_t size() const override { return size_; }
  void write(HostView src) override;
  void read_into(HostArray& dst) const override;

  cl_mem buffer() const { return buffer_.get(); }
  // Unique per array for the life of the process: programs key on it, not on the address.
  std::uint64_t serial() const { return serial_; }

 private:
  std::shared_ptr<Device> device_;
  DType dtype_;
  std::size_t size_;
  MemOwner buffer_;
  std::uint64_t serial_;
};

// `array` as a ClArray of `device`, else Error(usage).
ClArray& device_array(DeviceArray& array, const Device& device);

}  // namespace xr::opencl
