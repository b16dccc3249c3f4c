// What every case of a run shares: the CUDA device and its gate, the PTX, Vulkan and OpenCL on
// the same GPU (each, or why it is not there), the L2 flush's size and the clock probe.
#pragma once

#include <memory>
#include <string>

#include "cl_device.hpp"
#include "cuda_device.hpp"
#include "cuda_gate.hpp"
#include "vk_device.hpp"
#include "xreduce/cuda/clock.hpp"
#include "xreduce/ptx_module.hpp"

namespace xr::onebin {

struct Session {
  explicit Session(PtxModule module);

  CudaDevice cuda;
  PtxModule ptx;
  CudaGate gate;
  xr::cuda::SmClock clock;
  std::string vulkan;  // the device's description (each Vulkan column makes a device of its own)
  std::string vulkan_refused;
  // Set when a Vulkan replay lost its device; later ones are not tried: the same kernels would
  // lose theirs again, each a fault the driver logs.
  std::string vulkan_lost;
  std::unique_ptr<ClDevice> opencl;
  std::string opencl_refused;
  std::uint64_t flush_bytes = 0;  // twice L2, as the tool's cold runs flush it
};

}  // namespace xr::onebin
