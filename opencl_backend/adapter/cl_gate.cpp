#include "cl_gate.hpp"

#include <optional>
#include <string_view>

#include "cl_device.hpp"
#include "cl_internal.hpp"
#include "cl_probe_kernel.hpp"
#include "xreduce/env_knobs.hpp"
#include "xreduce/error.hpp"

namespace xr::opencl {
namespace {

// Long enough for any host to enqueue an interval, short enough that a gate nobody releases costs
// one second and an error (CUDA's gate waits as long).
constexpr std::uint32_t kGateLimitMs = 1000;

// The flags as a held kernel starts from (not released, not given up) and the release's word.
// Static: the release's non-blocking write reads it after the call returns.
constexpr int kCleared[2] = {0, 0};
constexpr int kReleased = 1;

// Each gate's XR_CL_GATE value and the report's words for it.
struct GateName {
  GateKind kind;
  const char* knob;
  const char* how;
};
constexpr GateName kGateNames[] = {{GateKind::user_event, "event", "behind a user-event gate"},
                                   {GateKind::kernel, "kernel", "behind a blocking kernel"},
                                   {GateKind::none, "none", "ungated"}};

// `kind`'s names; automatic (resolved by Device before any report) reads as the user event.
const GateName& name_of(GateKind kind) {
  for (const GateName& gate : kGateNames)
    if (gate.kind == kind) return gate;
  return kGateNames[0];
}

Pass gate_pass() {
  Pass pass = probe_pass("probe_gate", 1, 1);
  pass.params.param = kGateLimitMs;
  return pass;
}

}  // namespace

GateKnob read_gate_knob(KnobsGiven& given) {
  GateKnob knob;
  const auto kind = read_knob(given, knob.error, "XR_CL_GATE", "event, kernel or none",
                              [](std::string_view value) -> std::optional<GateKind> {
                                for (const GateName& gate : kGateNames)
                                  if (value == gate.knob) return gate.kind;
                                return std::nullopt;
                              });
  if (kind) knob.kind = *kind;
  return knob;
}

std::string knob_value(GateKind kind) {
  return name_of(kind).knob;
}

std::string held_by(GateKind kind, const std::string& why) {
  return std::string(name_of(kind).how) + " (" + why + ")";
}

KernelGate::KernelGate(const Device& device)
    : flags_(make_buffer(device, sizeof kCleared)),
      release_queue_(XR_CL_CREATE(clCreateCommandQueueWithProperties(
          device.context(), device.facts().device, nullptr, status))) {
  programs_of(device).kernel(gate_pass().key);  // built (or its build log thrown) up front
  device.write(flags_.get(), 0, sizeof kCleared, kCleared);
  // One trial interval, empty: whether this device runs a write of another queue while a kernel
  // holds the first (OpenCL does not promise it).
  hold(device);
  release();
  if (release_status_ != CL_SUCCESS || gave_up(device))
    throw Error(ErrorCategory::unsupported,
                "opencl: XR_CL_GATE=kernel: " + device.facts().info.name +
                    " did not run the gate's release (a write on a second queue) before the "
                    "blocking kernel gave up at 1 s: the gate cannot hold an interval on this "
                    "device; use XR_CL_GATE=event or none");
}

void KernelGate::hold(const Device& device) {
  enqueue_probe(device, gate_pass(), nullptr, flags_.get());
}

void KernelGate::release() noexcept {
  cl_event raw = nullptr;
  release_status_ = clEnqueueWriteBuffer(release_queue_.get(), flags_.get(), CL_FALSE, 0,
                                         sizeof kReleased, &kReleased, 0, nullptr, &raw);
  released_ = EventOwner(raw);
  if (release_status_ == CL_SUCCESS) release_status_ = clFlush(release_queue_.get());
}

bool KernelGate::gave_up(const Device& device) {
  device.wait(released_.get(), "the blocking-kernel gate's release");
  // Cleared here, with both queues idle: a clear enqueued before the kernel could land after a
  // release from the other queue.
  int flags[2] = {};
  device.read(flags_.get(), 0, sizeof flags, flags);
  device.write(flags_.get(), 0, sizeof kCleared, kCleared);
  return flags[1] != 0;
}

void KernelGate::check(const Device& device) {
  if (release_status_ != CL_SUCCESS)
    throw Error(
        ErrorCategory::device_lost,
        "opencl: the blocking-kernel gate's release could not be enqueued (XR_CL_GATE=event "
        "times without the kernel): " +
            error_name(release_status_));
  if (gave_up(device))
    throw Error(ErrorCategory::device_lost,
                "opencl: the blocking-kernel gate gave up after 1 s before the host released it, "
                "or never saw the release: the interval is not device time (XR_CL_GATE=event "
                "times without the kernel)");
}

}  // namespace xr::opencl
