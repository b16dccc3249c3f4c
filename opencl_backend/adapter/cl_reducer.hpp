// The OpenCL reducer and scanner of one built-in variant: the library's Reduce or Scan over the
// tool's arrays, timed by run_timed.
#pragma once

#include <memory>

#include "cl_device.hpp"
#include "cl_internal.hpp"
#include "xreduce/backend.hpp"

namespace xr::opencl {

std::unique_ptr<Reducer> make_reducer(std::shared_ptr<Device> device, const ReduceSpec& spec);
std::unique_ptr<Scanner> make_scanner(std::shared_ptr<Device> device, const ScanSpec& spec);

// How many calls' programs a reducer or scanner keeps (by array and op).
inline constexpr std::size_t kProgramsKept = 4;

}  // namespace xr::opencl
