#include "cl_timed.hpp"

#include <chrono>
#include <thread>

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

void wait_for(cl_event event, const char* what) {
  const auto start = Clock::now();
  for (int spins = 0;; ++spins) {
    cl_int status = CL_QUEUED;
    XR_CL_CHECK(
        clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
    if (status == CL_COMPLETE) return;
    if (status < 0)
      throw Error(ErrorCategory::device_lost,
                  std::string("opencl: ") + what + " failed on the device: " + error_name(status));
    const double waited = std::chrono::duration<double>(Clock::now() - start).count();
    if (waited > kWaitLimitSeconds)
      throw Error(ErrorCategory::device_lost, std::string("opencl: ") + what +
                                                  " did not complete within " +
                                                  std::to_string(int(kWaitLimitSeconds)) + " s");
    // Spin for the first milliseconds (a round trip is timed through this wait), then sleep.
    if (waited > 0.01) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

Timing run_timed(const Device& device, int calls, const CallEnqueuer& enqueue_call) {
  Gate gate{EventOwner(XR_CL_CREATE(clCreateUserEvent(device.context(), status)))};
  const cl_event gate_event = gate.event.get();
  cl_event first_raw = nullptr, last_raw = nullptr;
  for (int i = 0; i < calls; ++i)
    enqueue_call(i == 0 ? std::span<const cl_event>(&gate_event, 1) : std::span<const cl_event>{},
                 i == 0 ? &first_raw : nullptr, i + 1 == calls ? &last_raw : nullptr);
  EventOwner first(first_raw), last(last_raw);
  XR_CL_CHECK(clFlush(device.queue()));
  const auto t0 = Clock::now();
  gate.open = true;
  XR_CL_CHECK(clSetUserEventStatus(gate_event, CL_COMPLETE));
  wait_for(last.get(), "a timed call");
  const auto t1 = Clock::now();
  Timing t;
  t.device_ms = static_cast<double>(event_end(last.get()) - event_start(first.get())) / 1e6 / calls;
  t.host_ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / calls;
  t.device_timer = true;
  return t;
}

}  // namespace xr::opencl
