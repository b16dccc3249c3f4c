// Two kernels of our own in PTX, built beside the sort's PTX with its header: the gate that
// holds a CUDA stream until the host has enqueued a timed call, and the probe that tells which
// device address OpenCL gives a buffer.
#pragma once

#include <string>

namespace xr::onebin {

inline constexpr const char* kGateEntry = "xr_gate";
inline constexpr const char* kAddressEntry = "xr_address_of";

// xr_gate(release, timed_out, timeout_ns), one thread: spins until the 32-bit word at `release`
// (mapped host memory) is nonzero; after `timeout_ns` of %globaltimer it writes 1 to
// `timed_out` and returns, so that a host that never releases costs a second, not a hang.
std::string gate_ptx(const std::string& header);

// xr_address_of(buffer, out), one work-item: out[0] = the address the kernel is given for
// `buffer`, both OpenCL global pointers (`.ptr .global`, which NVIDIA's OpenCL needs to pass a
// cl_mem).
std::string address_ptx(const std::string& header);

}  // namespace xr::onebin
