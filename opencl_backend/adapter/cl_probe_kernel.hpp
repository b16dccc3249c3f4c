// What the measurement seams share: a probe kernel of kernels/probe_*.cl (built with T_U32) as
// one pass, enqueued on the tool's queue.
#pragma once

#include <string>

#include "cl_device.hpp"
#include "cl_internal.hpp"
#include "cl_timed.hpp"

namespace xr::opencl {

// kernels/<kernel>.cl as one pass of `groups` work-groups of `workgroup` over `n` of the
// probe's own units (16-byte vectors for read and copy); the caller sets further params.
inline Pass probe_pass(std::string kernel, std::uint32_t workgroup, std::uint64_t groups,
                       std::uint64_t n = 0, std::uint32_t unroll = 1) {
  Pass p;
  p.key.kernel = std::move(kernel);
  p.key.dtype = DType::u32;
  p.key.workgroup = workgroup;
  p.key.unroll = unroll;
  p.key.idx64 = needs_idx64(n);
  p.params.n = n;
  p.params.groups = static_cast<std::uint32_t>(groups);
  p.groups = groups;
  return p;
}

inline Programs& programs_of(const Device& device) {
  return *state_of(device.library()).programs;
}

// Enqueues `pass` over src and dst (dst doubles as aux, which no probe uses).
inline void enqueue_probe(const Device& device, const Pass& pass, cl_mem src, cl_mem dst,
                          const EnqueueEvents& events = {}) {
  enqueue_passes(programs_of(device), device.queue(), {&pass, 1}, {src, dst, dst}, events);
}

}  // namespace xr::opencl
