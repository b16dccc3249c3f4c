// A scan's plan in OpenCL: core's plan (xreduce/scan_plan.hpp) translated pass for pass into
// launches: each pass's kernel built for what it reads and writes (accumulators in scratch, the
// caller's elements, a wide tile's float results by -DXR_WIDE_DST), the call's kind on the passes
// that write its output.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cl_passes.hpp"
#include "cl_scan_table.hpp"

namespace xr::opencl {

// n >= 1. Scratch holds accumulators (float for f16/bf16).
Launches scan_launches(const ScanSpec& spec, std::uint64_t n, DType t, Op op, ScanKind kind,
                       const LookBackPolicy& lookback, std::size_t max_work_group);

}  // namespace xr::opencl
