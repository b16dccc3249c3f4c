// The read-bandwidth probe behind Backend::measure_read_bandwidth_gbps (dispatch_stream.cu only:
// a non-template kernel, defined once).
#pragma once

#include <cstddef>

namespace xr::cuda::kernels {

// The read-bandwidth probe: 16-byte loads, four in flight, a data-dependent store so the loads
// cannot be dropped (the store practically never happens: `sink` is never read).
__global__ void __launch_bounds__(256)
    stream_read(const uint4* __restrict__ in, std::size_t nvec, unsigned* sink) {
  const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
  unsigned acc = 0;
  std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * threads < nvec; i += 4 * threads) {
    uint4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = __ldg(in + i + u * threads);
#pragma unroll
    for (int u = 0; u < 4; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < nvec; i += threads) acc ^= in[i].x ^ in[i].y ^ in[i].z ^ in[i].w;
  if (acc == 0x9e3779b9u) sink[blockIdx.x] = acc;
}

}  // namespace xr::cuda::kernels
