// How a timed OpenCL interval is held until all of it is enqueued (XR_CL_GATE, docs/cli.md):
// behind a user event its first command waits for (the default), behind a blocking kernel
// (nvbench's, as CUDA's gate: the commands then reach the device before the interval starts), or
// not at all (the interval may then hold the host's enqueue gaps). The last two are experiments on
// what the first costs: on NVIDIA's driver each dependent command of a call started ~15 us late
// with the user event and without any gate alike (docs/results/H100/opencl).
#pragma once

#include <CL/cl.h>

#include <string>

#include "cl_handles.hpp"

namespace xr::opencl {

class Device;

enum class GateKind { user_event, kernel, none };

struct GateKnob {
  GateKind kind = GateKind::user_event;
  std::string given;  // the knob's value as set, empty when unset
  std::string error;  // one line when the value is none of event, kernel, none
};

// XR_CL_GATE=event|kernel|none, or the default (event). Never throws.
GateKnob read_gate_knob();

// How the rows of a report say their intervals were held ("behind a user-event gate", ...).
std::string held_by(GateKind kind);

// The blocking kernel (kernels/probe_gate.cl) and its two flags (release, gave up) in host memory
// the device reads while the kernel runs (CL_MEM_ALLOC_HOST_PTR, mapped for the gate's lifetime:
// pinned memory on NVIDIA, the same memory on a CPU device).
class KernelGate {
 public:
  explicit KernelGate(const Device& device);
  ~KernelGate();
  KernelGate(const KernelGate&) = delete;
  KernelGate& operator=(const KernelGate&) = delete;

  // Enqueues the spinning kernel on the device's queue (idle, or the last interval checked).
  void hold(const Device& device);
  void release();
  // After the interval's last command completed: Error(device_lost) when the kernel gave up
  // waiting (the host took longer than its limit to enqueue the interval).
  void check() const;

 private:
  cl_command_queue queue_;  // the device's, which outlives the gate
  MemOwner flags_;
  int* host_ = nullptr;  // flags_, mapped
};

}  // namespace xr::opencl
