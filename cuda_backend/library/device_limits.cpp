#include "device_limits.hpp"

#include "cuda_check.hpp"

namespace xr::cuda {

DeviceLimits query_limits(int device) {
  cudaDeviceProp p{};
  XR_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  DeviceLimits d;
  d.device = device;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  d.max_threads_per_block = p.maxThreadsPerBlock;
  d.shared_per_block = p.sharedMemPerBlock;
  d.shared_per_block_optin = p.sharedMemPerBlockOptin;
  d.shared_per_sm = p.sharedMemPerMultiprocessor;
  d.regs_per_block = p.regsPerBlock;
  d.regs_per_sm = p.regsPerMultiprocessor;
  d.max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
  d.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
  d.global_bytes = p.totalGlobalMem;
  d.warp_size = p.warpSize;
  int cooperative = 0;
  XR_CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  d.cooperative_launch = cooperative != 0;
  return d;
}

}  // namespace xr::cuda
