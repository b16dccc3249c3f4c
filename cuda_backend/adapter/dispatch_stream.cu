// The bandwidth probe behind Backend::measure_read_bandwidth_gbps.
#include "dispatch_stream.hpp"
#include "stream_read.cuh"

namespace xr::cuda {

// One resident wave of 256-thread blocks (the probe is __launch_bounds__(256), ~20 registers).
unsigned stream_read_blocks(const DeviceLimits& dev) {
  return static_cast<unsigned>(std::max(dev.sm_count, 1) *
                               std::max(dev.max_threads_per_sm / 256, 1));
}

void enqueue_stream_read(const void* buf, std::size_t bytes, unsigned* sink,
                         const DeviceLimits& dev, cudaStream_t stream, unsigned waves) {
  kernels::stream_read<<<waves * stream_read_blocks(dev), 256, 0, stream>>>(
      static_cast<const uint4*>(buf), bytes / 16, sink);
  XR_CUDA_CHECK_LAUNCH();
}

}  // namespace xr::cuda
