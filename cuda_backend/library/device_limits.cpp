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
  d.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
  d.global_bytes = p.totalGlobalMem;
  d.warp_size = p.warpSize;
  int cooperative = 0;
  XR_CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  d.cooperative_launch = cooperative != 0;
  return d;
}

}  // namespace xr::cuda
