// The OpenCL Histogrammer of one built-in variant: the library's Histogram over the tool's arrays,
// planned with its scratch once per (dtype, n, levels), timed by run_timed.
#pragma once

#include <memory>
#include <string_view>

#include "cl_device.hpp"
#include "xreduce/backend.hpp"

namespace xr::opencl {

std::unique_ptr<Histogrammer> make_histogrammer(std::shared_ptr<Device> device,
                                                std::string_view id);

}  // namespace xr::opencl
