// The passes of one call over the caller's three buffers (input, output, scratch), translated from
// core's plans (cl_reduce_plan, cl_scan_plan) and enqueued in order on the caller's queue: the
// counterpart of Vulkan's recording and CUDA's launches.
#pragma once

#include <CL/cl.h>

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cl_programs.hpp"
#include "xreduce/compiled.hpp"
#include "xreduce/pass_args.hpp"

namespace xr::opencl {

// One launch of a core plan's pass: the built-in kernel (its build's key), the caller's buffers
// at its three arguments, its arguments after them (kernels/common.cl, XR_KERNEL) and its grid.
struct Pass {
  KernelKey key;
  PassBuffers roles = kIoBuffers;  // src, dst, aux
  PassArgs params;
  std::uint64_t groups = 1;  // work-groups launched (global size = groups x key.workgroup)
};

// What one call launches, and the scratch its passes share.
struct Launches {
  std::vector<Pass> passes;
  std::uint64_t scratch_bytes = 16;
  bool zero_scratch = false;                  // the look-back: status words start at zero
  std::optional<std::uint64_t> fallbacks_at;  // the look-back: bytes into scratch of the count
};

// Where the first and last pass's events go, and what the first one waits for.
struct EnqueueEvents {
  std::span<const cl_event> wait;
  cl_event* first = nullptr;  // the first pass's event (retained: the caller releases it)
  cl_event* last = nullptr;   // the last pass's
};

// Enqueues command `index` of a call's `count` by `enqueue(wait_count, wait, event)` (an OpenCL
// enqueue's last three arguments, its status checked by `enqueue`): the first waits for
// events.wait and hands its event to events.first, the last to events.last.
template <class Enqueue>
void enqueue_command(std::size_t index, std::size_t count, const EnqueueEvents& events,
                     Enqueue&& enqueue) {
  const bool first = index == 0, last = index + 1 == count;
  cl_event event = nullptr;
  const bool want = (first && events.first) || (last && events.last);
  enqueue(first ? static_cast<cl_uint>(events.wait.size()) : cl_uint{0},
          first && !events.wait.empty() ? events.wait.data() : nullptr, want ? &event : nullptr);
  if (first && events.first) {
    clRetainEvent(event);
    *events.first = event;
  }
  if (last && events.last) {
    clRetainEvent(event);
    *events.last = event;
  }
  if (event) clReleaseEvent(event);
}

// Enqueues `kernel` (its arguments set) over `groups` work-groups of `local` work-items as launch
// `index` of a call's `count` (enqueue_command's events).
void enqueue_launch(cl_command_queue queue, cl_kernel kernel, std::size_t local,
                    std::uint64_t groups, std::size_t index, std::size_t count,
                    const EnqueueEvents& events);

// Enqueues `passes` over {input, output, scratch}, in order (an in-order queue runs them one
// after another: each pass sees the writes of the ones before).
void enqueue_passes(Programs& programs, cl_command_queue queue, std::span<const Pass> passes,
                    std::array<cl_mem, 3> buffers, const EnqueueEvents& events);

// What a built-in kernel compiled into (`inspect`): work-group, groups, the driver's facts.
CompiledPass compiled_kernel(Programs& programs, const DeviceFacts& facts, const KernelKey& key,
                             std::uint64_t groups);
// The same for each pass.
std::vector<CompiledPass> compiled_passes(Programs& programs, const DeviceFacts& facts,
                                          std::span<const Pass> passes);

// Whether a pass over arrays of n elements indexes in 64 bits.
inline bool needs_idx64(std::uint64_t n) {
  return n >= (std::uint64_t{1} << 31) - (std::uint64_t{1} << 20);
}

}  // namespace xr::opencl
