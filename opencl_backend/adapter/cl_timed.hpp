// A timed call on the OpenCL queue: `calls` back-to-back calls enqueued behind a gate (a user
// event; XR_CL_GATE picks a blocking kernel or none, cl_gate.hpp), the gate opened, the last
// kernel waited for. The interval is meant to hold no host launch gap (as CUDA's blocking kernel
// and Vulkan's recorded command buffer keep theirs): the device time runs from the first call's
// first command's START to the last call's last command's END, read from their profiling events.
#pragma once

#include <CL/cl.h>

#include <functional>
#include <span>

#include "cl_device.hpp"
#include "xreduce/backend.hpp"

namespace xr::opencl {

// Enqueues one call: its first command waits for `wait` and hands its event to `first` when
// given; its last command hands its event to `last` when given.
using CallEnqueuer =
    std::function<void(std::span<const cl_event> wait, cl_event* first, cl_event* last)>;

// Per-call timing of `calls` (>= 1) calls.
Timing run_timed(const Device& device, int calls, const CallEnqueuer& enqueue_call);

// The profiling counters of `event` in nanoseconds.
cl_ulong event_start(cl_event event);
cl_ulong event_end(cl_event event);

}  // namespace xr::opencl
