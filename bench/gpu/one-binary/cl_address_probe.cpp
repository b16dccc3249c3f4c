#include "cl_address_probe.hpp"

#include "cl_check.hpp"
#include "helper_ptx.hpp"

namespace xr::onebin {

ClAddressProbe::ClAddressProbe(const ClDevice& d, const std::string& ptx_header)
    : device_(d), program_(d.build_ptx(address_ptx(ptx_header))) {
  kernel_ =
      opencl::KernelOwner(XR_CL_CREATE(clCreateKernel(program_.get(), kAddressEntry, status)));
  out_ = opencl::MemOwner(XR_CL_CREATE(
      clCreateBuffer(d.context(), CL_MEM_READ_WRITE, sizeof(std::uint64_t), nullptr, status)));
}

std::uint64_t ClAddressProbe::address_of(cl_mem buffer) const {
  const cl_mem out = out_.get();
  XR_CL_CHECK(clSetKernelArg(kernel_.get(), 0, sizeof(cl_mem), &buffer));
  XR_CL_CHECK(clSetKernelArg(kernel_.get(), 1, sizeof(cl_mem), &out));
  const std::size_t one = 1;
  XR_CL_CHECK(clEnqueueNDRangeKernel(device_.queue(), kernel_.get(), 1, nullptr, &one, &one, 0,
                                     nullptr, nullptr));
  std::uint64_t address = 0;
  XR_CL_CHECK(clEnqueueReadBuffer(device_.queue(), out, CL_TRUE, 0, sizeof address, &address, 0,
                                  nullptr, nullptr));
  return address;
}

}  // namespace xr::onebin
