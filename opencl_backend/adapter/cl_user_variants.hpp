// Users' kernels as OpenCL variants (`--kernel FILE.cl`): a Reducer that runs the kernel's one
// pass again over its partials until one value is left (the classic recursive reduction), and a
// Scanner that runs its passes in order over (input, output, zeroed scratch); both enqueue their
// passes behind run_timed's gate and are timed by profiling events like the built-in variants.
#pragma once

#include <memory>

#include "cl_device.hpp"
#include "xreduce/backend.hpp"
#include "xreduce/user_kernel.hpp"

namespace xr::opencl {

// The kernel outlives the variants made from it (the backend keeps it).
std::unique_ptr<Reducer> make_user_reducer(std::shared_ptr<Device> device,
                                           const UserKernel& kernel);
std::unique_ptr<Scanner> make_user_scanner(std::shared_ptr<Device> device,
                                           const UserKernel& kernel);

}  // namespace xr::opencl
