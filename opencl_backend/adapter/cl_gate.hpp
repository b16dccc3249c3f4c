// How a timed OpenCL interval is held until all of it is enqueued (XR_CL_GATE, docs/cli.md):
// behind a blocking kernel (nvbench's, as CUDA's gate: the commands reach the device before the
// interval starts and run back to back), behind a user event its first command waits for, or not
// at all. The default is the blocking kernel on a GPU, one method with CUDA: on NVIDIA's driver
// the user event leaves each dependent command of a call late (the ungated interval alike), so
// small calls take about twice their time behind the kernel (docs/results/H200/opencl). A CPU
// device, and a GPU that cannot release the kernel, take the user event.
#pragma once

#include <CL/cl.h>

#include <string>

#include "cl_internal.hpp"
#include "xreduce/env_knobs.hpp"

namespace xr::opencl {

class Device;

// `automatic`: XR_CL_GATE unset; the device picks (Device's constructor).
enum class GateKind { automatic, user_event, kernel, none };

struct GateKnob {
  GateKind kind = GateKind::automatic;
  std::string error;  // one line when the value is none of event, kernel, none
};

// XR_CL_GATE=event|kernel|none, recorded in `given`; automatic when unset or malformed (then
// `error`). Never throws.
GateKnob read_gate_knob(KnobsGiven& given);

// Calls a batch keeps queued behind the blocking kernel before letting it go, as CUDA's gate
// (cuda_backend/adapter/timing.hpp): a driver's queue is finite, and an enqueue into a full one
// waits for the held kernel, which then gives up at its limit. The calls after these are
// enqueued while the device works through them.
inline constexpr int kGatedCalls = 256;

// The XR_CL_GATE value that picks `kind` (a resolved kind: never automatic).
std::string knob_value(GateKind kind);

// How the rows of a report say their intervals were held, and why that way: "behind a blocking
// kernel (XR_CL_GATE=kernel)", "behind a blocking kernel (a GPU's default)", ...
std::string held_by(GateKind kind, const std::string& why);

// The blocking kernel (kernels/probe_gate.cl) and its two flags (release, gave up) in device
// memory, released by a write on a queue of the gate's own, which the device runs beside the held
// queue (NVIDIA's 580.159 and pocl do). Not a mapped host buffer, as CUDA's gate: only
// fine-grained SVM promises that a running kernel sees the host's writes, and NVIDIA's driver has
// coarse-grained SVM alone.
class KernelGate {
 public:
  // Builds the kernel and tries one empty interval: Error(unsupported) when the device does not
  // run the release while the kernel holds the queue.
  explicit KernelGate(const Device& device);
  KernelGate(const KernelGate&) = delete;
  KernelGate& operator=(const KernelGate&) = delete;

  // Enqueues the spinning kernel on the device's queue (idle, or the last interval checked).
  void hold(const Device& device);
  // Writes the release flag from the gate's queue, flushed: the held queue's commands run once
  // the kernel sees it. Never throws (it runs on every path out of an interval): check() says
  // what failed.
  void release() noexcept;
  // After the interval's last command completed: clears the flags for the next hold, and
  // Error(device_lost) when the kernel gave up waiting (the release came later than its limit,
  // or never reached it).
  void check(const Device& device);

 private:
  // Waits for the last release, then reads and clears the flags: whether the kernel gave up.
  bool gave_up(const Device& device);

  MemOwner flags_;
  QueueOwner release_queue_;
  EventOwner released_;  // the last release's write
  cl_int release_status_ = CL_SUCCESS;
};

}  // namespace xr::opencl
