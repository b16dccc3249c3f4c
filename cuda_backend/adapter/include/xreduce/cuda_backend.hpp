// The CUDA backend of xreduce. Plain C++: no CUDA header leaks to the app or the tests.
#pragma once

#include <memory>

#include "xreduce/backend.hpp"

namespace xr::cuda {

// Never throws. Probes the driver with cudaGetDeviceCount once; when that fails (no driver, no
// device) the backend is listed as unavailable with the driver's reason in words, and its
// variants() are still known.
std::unique_ptr<Backend> make_backend();

}  // namespace xr::cuda
