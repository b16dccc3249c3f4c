// The OpenCL anchor of compare --transfers (Backend::measure_link): the host link as OpenCL's own
// copies from page-locked memory see it, without the backend's transfer path around them.
#pragma once

#include <cstdint>

#include "cl_device.hpp"
#include "xreduce/backend.hpp"

namespace xr::opencl {

// clEnqueueWriteBuffer of `bytes` from a CL_MEM_ALLOC_HOST_PTR buffer mapped by
// clEnqueueMapBuffer (OpenCL's page-locked memory) into a device buffer, and clEnqueueReadBuffer
// back into it, each timed by its profiling event: one warm-up, then the median of kLinkRuns.
// `bytes` is clamped to one allocation and a quarter of the device's memory (LinkRate::how says
// so).
LinkRate measure_opencl_link(const Device& device, std::uint64_t bytes);

}  // namespace xr::opencl
