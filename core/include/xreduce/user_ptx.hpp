// A user's PTX (`--kernel FILE.ptx`) against CUDA's ABI as nvcc writes it, for the APIs that
// launch PTX themselves: NVIDIA's OpenCL (a program binary) and Vulkan (VK_NVX_binary_import).
#pragma once

#include <cstddef>
#include <string>

#include "xreduce/ptx_module.hpp"
#include "xreduce/user_kernel.hpp"

namespace xr {

// The kernel's PTX, each pass's entry checked: defined, taking the ABI's parameters (a reduce's
// .u64 in, .u64 partials, .u32 n; a scan's .u64 in, .u64 out, .u64 scratch, .u32 n). Error(usage)
// naming the file. Needs no device.
PtxModule checked_user_ptx(const UserKernel& kernel);

// How many of the ABI's parameters are pointers: a reduce's 2, a scan's 3 (n comes after them).
std::size_t ptx_pointer_params(Primitive primitive);

// The name a parameter declaration gives ("xr_reduce_param_0" of ".param .u64 xr_reduce_param_0").
std::string ptx_param_name(const std::string& declaration);

}  // namespace xr
