// The OpenCL half of the per-API overhead table (Backend::measure_overheads): what a user pays
// around the kernels on the tool's in-order profiling queue.
#pragma once

#include <vector>

#include "cl_device.hpp"
#include "xreduce/backend.hpp"

namespace xr::opencl {

// With an empty kernel (kernels/probe_empty.cl, one work-group of 32): its GPU time back to back
// and one call's gated interval (profiling events), the host cost of one clEnqueueNDRangeKernel
// and per call of a batch, and host round trips (clFinish, a polled event, a 4-byte read-back).
std::vector<Overhead> measure_opencl_overheads(const Device& device);

}  // namespace xr::opencl
