// The device address NVIDIA's OpenCL gives a buffer, read by a kernel that is passed the cl_mem
// and writes what it received. The sort's kernels take most of their pointers inside a struct
// passed by value, where no cl_mem can go: they get these addresses, as CUDA's kernels get
// cuMemAlloc's and Vulkan's get vkGetBufferDeviceAddress's.
#pragma once

#include <cstdint>
#include <string>

#include "cl_device.hpp"

namespace xr::onebin {

class ClAddressProbe {
 public:
  ClAddressProbe(const ClDevice& d, const std::string& ptx_header);
  std::uint64_t address_of(cl_mem buffer) const;

 private:
  const ClDevice& device_;
  opencl::ProgramOwner program_;
  opencl::KernelOwner kernel_;
  opencl::MemOwner out_;
};

}  // namespace xr::onebin
