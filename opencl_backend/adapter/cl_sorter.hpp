// The OpenCL Sorter of one built-in variant: the library's Sort over the tool's arrays, planned
// with its scratch once per (n, dtype, order, bits, pairs), timed by run_timed.
#pragma once

#include <memory>
#include <string_view>

#include "cl_device.hpp"
#include "cl_internal.hpp"
#include "xreduce/backend.hpp"

namespace xr::opencl {

std::unique_ptr<Sorter> make_sorter(std::shared_ptr<Device> device, std::string_view id);

}  // namespace xr::opencl
