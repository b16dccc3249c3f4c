// The CUDA anchor of compare --transfers (Backend::measure_link): the host link as the copy
// engines see it from page-locked memory, without the staging of the backend's transfer path.
#pragma once

#include <cstdint>

#include "context.hpp"
#include "xreduce/backend.hpp"

namespace xr::cuda {

// cudaMemcpyAsync of `bytes` from a cudaMallocHost buffer into device memory and back, on the
// context's stream, each copy between two CUDA events: one warm-up, then the median of
// kLinkRuns each way. `bytes` is clamped to half the device's free memory, and LinkRate::how
// says so.
LinkRate measure_cuda_link(Context& ctx, std::uint64_t bytes);

}  // namespace xr::cuda
