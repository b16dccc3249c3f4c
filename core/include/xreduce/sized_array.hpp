// A GPU backend's DeviceArray: its dtype and size fixed when it is made, a serial number no other
// array of the process shares, and write/read_into that check the host side before the backend
// copies. Every GPU array holds core's kKernelSlackBytes past its n elements (user_kernel.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "xreduce/backend.hpp"

namespace xr {

class SizedArray : public DeviceArray {
 public:
  DType dtype() const final { return dtype_; }
  std::size_t size() const final { return size_; }
  // Error(usage) unless `src` (`dst`) has this array's dtype and size; an empty array copies
  // nothing.
  void write(HostView src) final;
  void read_into(HostArray& dst) const final;
  // Unique per array for the life of the process: the key of work cached for an array, which a
  // later array at the same address or handle must never find.
  std::uint64_t serial() const { return serial_; }

 protected:
  SizedArray(DType t, std::size_t n);
  // Copies bytes() bytes from the host into the array (out of it), blocking; bytes() > 0.
  virtual void copy_in(const void* src) = 0;
  virtual void copy_out(void* dst) const = 0;

 private:
  DType dtype_;
  std::size_t size_;
  std::uint64_t serial_;
};

}  // namespace xr
