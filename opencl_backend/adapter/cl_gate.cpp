#include "cl_gate.hpp"

#include <atomic>
#include <cstdlib>
#include <string_view>

#include "cl_check.hpp"
#include "cl_device.hpp"
#include "cl_probe_kernel.hpp"
#include "xreduce/error.hpp"

namespace xr::opencl {
namespace {

// Long enough for any host to enqueue an interval, short enough that a gate nobody releases costs
// one second and an error (CUDA's gate waits as long).
constexpr std::uint32_t kGateLimitMs = 1000;

Pass gate_pass() {
  Pass pass = probe_pass("probe_gate", 1, 1);
  pass.params.param = kGateLimitMs;
  return pass;
}

}  // namespace

GateKnob read_gate_knob() {
  GateKnob knob;
  const char* value = std::getenv("XR_CL_GATE");
  if (!value || !*value) return knob;
  knob.given = value;
  const std::string_view v(value);
  if (v == "kernel")
    knob.kind = GateKind::kernel;
  else if (v == "none")
    knob.kind = GateKind::none;
  else if (v != "event")
    knob.error = "XR_CL_GATE must be event, kernel or none (got '" + knob.given + "')";
  return knob;
}

std::string held_by(GateKind kind) {
  switch (kind) {
    case GateKind::kernel:
      return "behind a blocking kernel (XR_CL_GATE=kernel)";
    case GateKind::none:
      return "ungated (XR_CL_GATE=none)";
    case GateKind::user_event:
      break;
  }
  return "behind a user-event gate";
}

KernelGate::KernelGate(const Device& device)
    : queue_(device.queue()),
      flags_(make_buffer(device, 2 * sizeof(int), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR)) {
  programs_of(device).kernel(gate_pass().key);  // built (or its build log thrown) up front
  cl_event mapped = nullptr;
  host_ = static_cast<int*>(
      XR_CL_CREATE(clEnqueueMapBuffer(queue_, flags_.get(), CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                      2 * sizeof(int), 0, nullptr, &mapped, status)));
  device.flush_and_wait(mapped, "the gate's flags' mapping");
  host_[0] = host_[1] = 0;
}

KernelGate::~KernelGate() {
  // Not waited for: the runtime keeps the buffer until its last command (this unmap) is done.
  if (host_) clEnqueueUnmapMemObject(queue_, flags_.get(), host_, 0, nullptr, nullptr);
}

void KernelGate::hold(const Device& device) {
  std::atomic_ref<int>(host_[1]).store(0, std::memory_order_relaxed);
  std::atomic_ref<int>(host_[0]).store(0, std::memory_order_release);
  enqueue_probe(device, gate_pass(), nullptr, flags_.get());
}

void KernelGate::release() {
  std::atomic_ref<int>(host_[0]).store(1, std::memory_order_release);
}

void KernelGate::check() const {
  if (std::atomic_ref<int>(host_[1]).load(std::memory_order_acquire))
    throw Error(ErrorCategory::device_lost,
                "opencl: the blocking-kernel gate (XR_CL_GATE=kernel) gave up after 1 s before the "
                "host released it, or never saw the release: the interval is not device time");
}

}  // namespace xr::opencl
