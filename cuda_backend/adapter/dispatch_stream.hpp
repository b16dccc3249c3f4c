// The seams of Backend::flush_cache and measure_read_bandwidth_gbps (dispatch_stream.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "context.hpp"

namespace xr::cuda {

// Blocks of one resident wave of the stream-read kernel.
unsigned stream_read_blocks(const DeviceLimits& dev);
// Reads `bytes` (a multiple of 16) with 16-byte loads over `waves` resident waves of blocks;
// per-block results land in `sink`, which must hold waves * stream_read_blocks(dev) words.
void enqueue_stream_read(const void* buf, std::size_t bytes, unsigned* sink,
                         const DeviceLimits& dev, cudaStream_t stream, unsigned waves = 1);

}  // namespace xr::cuda
