#include "cl_timed.hpp"

#include <algorithm>
#include <chrono>

#include "cl_internal.hpp"

namespace xr::opencl {
namespace {

using Clock = std::chrono::steady_clock;

cl_ulong profile(cl_event event, cl_profiling_info what) {
  cl_ulong v = 0;
  XR_CL_CHECK(clGetEventProfilingInfo(event, what, sizeof v, &v, nullptr));
  return v;
}

// Opens the gate on every path out: a gate left closed would hold the queue for ever.
struct UserEventGate {
  EventOwner event;
  bool open = false;
  void release(cl_int status) {
    if (!open) clSetUserEventStatus(event.get(), status);
    open = true;
  }
  ~UserEventGate() { release(-1); }
};

// Releases the blocking kernel on every path out (it would otherwise spin to its limit), or
// once kGatedCalls calls are queued behind it.
struct KernelGateRelease {
  KernelGate& gate;
  bool released = false;
  void release() {
    if (!released) gate.release();
    released = true;
  }
  ~KernelGateRelease() { release(); }
};

struct Enqueued {
  EventOwner first, last;
};

// Enqueues the calls, the first one's first command behind `wait`.
Enqueued enqueue_calls(int calls, std::span<const cl_event> wait,
                       const CallEnqueuer& enqueue_call) {
  cl_event first = nullptr, last = nullptr;
  for (int i = 0; i < calls; ++i)
    enqueue_call(i == 0 ? wait : std::span<const cl_event>{}, i == 0 ? &first : nullptr,
                 i + 1 == calls ? &last : nullptr);
  return {EventOwner(first), EventOwner(last)};
}

// Waits for the last call and reads the interval: device time from the first call's first
// command's START to the last call's last command's END, host time from `t0`.
Timing finish_interval(const Device& device, int calls, const Enqueued& e, Clock::time_point t0) {
  device.wait(e.last.get(), "a timed call");
  const auto t1 = Clock::now();
  Timing t;
  t.device_ms =
      static_cast<double>(event_end(e.last.get()) - event_start(e.first.get())) / 1e6 / calls;
  t.host_ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / calls;
  t.device_timer = true;
  return t;
}

Timing behind_user_event(const Device& device, int calls, const CallEnqueuer& enqueue_call) {
  UserEventGate gate{EventOwner(XR_CL_CREATE(clCreateUserEvent(device.context(), status)))};
  const cl_event gate_event = gate.event.get();
  const Enqueued e = enqueue_calls(calls, {&gate_event, 1}, enqueue_call);
  XR_CL_CHECK(clFlush(device.queue()));
  const auto t0 = Clock::now();
  gate.open = true;
  XR_CL_CHECK(clSetUserEventStatus(gate_event, CL_COMPLETE));
  return finish_interval(device, calls, e, t0);
}

Timing behind_kernel(const Device& device, int calls, const CallEnqueuer& enqueue_call) {
  KernelGate& gate = device.kernel_gate();
  gate.hold(device);
  Clock::time_point t0;
  Enqueued e;
  {
    KernelGateRelease release{gate};
    const int gated = std::min(calls, kGatedCalls);
    e = enqueue_calls(gated, {}, enqueue_call);
    XR_CL_CHECK(clFlush(device.queue()));
    t0 = Clock::now();
    release.release();
    if (calls > gated) {
      // The rest are enqueued while the device works through the first.
      Enqueued rest = enqueue_calls(calls - gated, {}, enqueue_call);
      e.last = std::move(rest.last);
      XR_CL_CHECK(clFlush(device.queue()));
    }
  }
  const Timing t = finish_interval(device, calls, e, t0);
  gate.check(device);
  return t;
}

// The commands reach the device as the driver takes them; flushed once, after the last.
Timing ungated(const Device& device, int calls, const CallEnqueuer& enqueue_call) {
  const auto t0 = Clock::now();
  const Enqueued e = enqueue_calls(calls, {}, enqueue_call);
  XR_CL_CHECK(clFlush(device.queue()));
  return finish_interval(device, calls, e, t0);
}

}  // namespace

cl_ulong event_start(cl_event event) {
  return profile(event, CL_PROFILING_COMMAND_START);
}

cl_ulong event_end(cl_event event) {
  return profile(event, CL_PROFILING_COMMAND_END);
}

Timing run_timed(const Device& device, int calls, const CallEnqueuer& enqueue_call) {
  // Every call below may block in a CPU device's driver, not only the wait (which has a timeout
  // of its own): a kernel's stray write can leave pocl's locks taken.
  const DeviceWatchdog watchdog = device.watchdog("a timed call");
  switch (device.gate()) {
    case GateKind::kernel:
      return behind_kernel(device, calls, enqueue_call);
    case GateKind::none:
      return ungated(device, calls, enqueue_call);
    case GateKind::user_event:
    case GateKind::automatic:  // resolved by Device's constructor
      break;
  }
  return behind_user_event(device, calls, enqueue_call);
}

}  // namespace xr::opencl
