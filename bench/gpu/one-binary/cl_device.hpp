// OpenCL on the CUDA device (found by its UUID, cl_khr_device_uuid): a context, an in-order
// queue with profiling, and PTX built as a program binary, as NVIDIA's OpenCL takes it.
#pragma once

#include <string>

#include "cl_handles.hpp"
#include "cuda_device.hpp"

namespace xr::onebin {

class ClDevice {
 public:
  // Error(unavailable) when no OpenCL GPU reports the UUID.
  explicit ClDevice(const DeviceUuid& uuid);

  cl_device_id device() const { return device_; }
  cl_context context() const { return context_.get(); }
  cl_command_queue queue() const { return queue_.get(); }
  // "NVIDIA H200, OpenCL 3.0 CUDA, driver 580.159.04"
  const std::string& describe() const { return describe_; }

  // clCreateProgramWithBinary of the PTX text and clBuildProgram: Error(unsupported) with the
  // build log when the driver refuses it.
  opencl::ProgramOwner build_ptx(const std::string& ptx) const;
  // Polls `e` (after a clFlush) for at most 20 s: Error(device_lost) when it failed or timed out.
  void wait(cl_event e, const char* what) const;

 private:
  cl_device_id device_ = nullptr;
  opencl::ContextOwner context_;
  opencl::QueueOwner queue_;
  std::string describe_;
};

// A command's START or END (profiling), in nanoseconds.
cl_ulong profiled(cl_event e, cl_profiling_info what);

}  // namespace xr::onebin
