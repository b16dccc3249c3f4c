#include "cl_timed.hpp"

#include <chrono>

#include "cl_check.hpp"
#include "cl_handles.hpp"

namespace xr::opencl {
namespace {

using Clock = std::chrono::steady_clock;

cl_ulong profile(cl_event event, cl_profiling_info what) {
  cl_ulong v = 0;
  XR_CL_CHECK(clGetEventProfilingInfo(event, what, sizeof v, &v, nullptr));
  return v;
}

// Opens the gate on every path out: a gate left closed would hold the queue for ever.
struct Gate {
  EventOwner event;
  bool open = false;
  void release(cl_int status) {
    if (!open) clSetUserEventStatus(event.get(), status);
    open = true;
  }
  ~Gate() { release(-1); }
};

}  // namespace

cl_ulong event_start(cl_event event) {
  return profile(event, CL_PROFILING_COMMAND_START);
}

cl_ulong event_end(cl_event event) {
  return profile(event, CL_PROFILING_COMMAND_END);
}

Timing run_timed(const Device& device, int calls, const CallEnqueuer& enqueue_call) {
  Gate gate{EventOwner(XR_CL_CREATE(clCreateUserEvent(device.context(), status)))};
  const cl_event gate_event = gate.event.get();
  cl_event first_raw = nullptr, last_raw = nullptr;
  // Ungated (XR_CL_NO_GATE), the commands reach the device as the driver takes them: the
  // interval may then hold the host's enqueue gaps, and the user event only marks the host's t0.
  const bool gated = device.gated();
  for (int i = 0; i < calls; ++i)
    enqueue_call(
        i == 0 && gated ? std::span<const cl_event>(&gate_event, 1) : std::span<const cl_event>{},
        i == 0 ? &first_raw : nullptr, i + 1 == calls ? &last_raw : nullptr);
  EventOwner first(first_raw), last(last_raw);
  XR_CL_CHECK(clFlush(device.queue()));
  const auto t0 = Clock::now();
  gate.open = true;
  XR_CL_CHECK(clSetUserEventStatus(gate_event, CL_COMPLETE));
  device.wait(last.get(), "a timed call");
  const auto t1 = Clock::now();
  Timing t;
  t.device_ms = static_cast<double>(event_end(last.get()) - event_start(first.get())) / 1e6 / calls;
  t.host_ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / calls;
  t.device_timer = true;
  return t;
}

}  // namespace xr::opencl
