// The OpenCL backend (`--backend opencl`): every platform's devices, the library's variants
// (xreduce::opencl), timing by profiling events.
#pragma once

#include <memory>

#include "xreduce/backend.hpp"

namespace xr::opencl {

std::unique_ptr<Backend> make_backend();

}  // namespace xr::opencl
