// A user's PTX kernel (`--kernel FILE.ptx`, CUDA's ABI) run by OpenCL: NVIDIA's OpenCL takes PTX
// as a program binary (clCreateProgramWithBinary), so the same PTX that CUDA's driver loads runs
// on OpenCL's buffers, queue and timer. Each pass's pointer parameters are declared
// `.ptr .global`, as NVIDIA's OpenCL C compiler declares a `__global` pointer, so that the driver
// passes each cl_mem argument's address; nothing else in the module changes.
#pragma once

#include <string>

#include "cl_device.hpp"
#include "cl_internal.hpp"
#include "xreduce/user_kernel.hpp"

namespace xr::opencl {

// The module as OpenCL builds it. Error(usage) naming the file: no PTX module, a pass's entry
// missing, or an entry's parameters other than the ABI's (their count, 64-bit pointers, a 32-bit
// n). Needs no device: checked when the kernel is added.
std::string opencl_ptx(const UserKernel& kernel);

// Why the driver of `facts` builds no PTX, in words; empty for NVIDIA's OpenCL, which does.
std::string ptx_unbuildable_reason(const DeviceFacts& facts);

// The program built from opencl_ptx's module, its build log kept (ptxas's lines, where the
// driver takes -cl-nv-verbose). Error(usage) naming the file with the driver's log where the
// driver refuses it.
BuiltProgram build_user_ptx(const Device& device, const UserKernel& kernel);

}  // namespace xr::opencl
