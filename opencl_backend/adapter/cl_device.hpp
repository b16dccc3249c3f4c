// The tool's device: a context and an in-order profiling queue of its own on one device of the
// system's OpenCL platforms, and the library's Context over them.
#pragma once

#include <memory>
#include <vector>

#include "cl_gate.hpp"
#include "cl_internal.hpp"
#include "xreduce/device_timeout.hpp"
#include "xreduce/opencl/context.hpp"

namespace xr::opencl {

// Every device of every platform the ICD loader reports, in platform order; devices of a
// platform that fails to answer are skipped (`problems` says which).
struct Platforms {
  std::vector<DeviceFacts> devices;
  std::vector<std::string> problems;
};
Platforms enumerate_devices(const FactsOptions& facts_options);

// Every wait for the device goes through wait(): none is endless (XR_DEVICE_TIMEOUT), and none is
// a blocking OpenCL call, which a kernel that never finishes would hold for ever.
class Device {
 public:
  // `knobs`: the library Context's. `gate` automatic: the blocking kernel on a GPU whose trial
  // interval passes, else the user event (cl_gate.hpp).
  Device(const DeviceFacts& facts, DeviceTimeout timeout, OpenClKnobs knobs,
         GateKind gate = GateKind::automatic);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  const DeviceFacts& facts() const { return facts_; }
  cl_context context() const { return context_.get(); }
  cl_command_queue queue() const { return queue_.get(); }
  const Context& library() const { return *library_; }
  // How run_timed holds an interval (XR_CL_GATE, or the device's default; never automatic); the
  // blocking kernel when that is the way.
  GateKind gate() const { return gate_; }
  // The report's words for it: how, and why (the knob, or the default's reason).
  std::string held_by() const { return opencl::held_by(gate_, gate_why_); }
  KernelGate& kernel_gate() const { return *kernel_gate_; }
  // A watchdog over calls into a CPU device's driver, which runs kernels in this process (a
  // GPU's: inactive): the process ends at the timeout even where such a call blocks.
  DeviceWatchdog watchdog(const char* what) const;

  // Waits for `event` (its queue flushed by the caller) to complete: a spin for the first
  // milliseconds (a round trip is timed through this wait), then sleeps. Past the timeout the
  // device is taken for lost: xr::device_timed_out (the tool ends the process at once; a device
  // still running the kernel cannot be torn down). A command that failed is Error(device_lost).
  void wait(cl_event event, const char* what) const;
  // Takes `enqueued` (an event just enqueued on the queue), flushes the queue and waits for it.
  void flush_and_wait(cl_event enqueued, const char* what) const;
  // Waits for every command enqueued so far (a marker's event).
  void finish(const char* what) const;
  // Copies between a buffer and host memory, waited for.
  void read(cl_mem buffer, std::uint64_t offset, std::uint64_t bytes, void* host) const;
  void write(cl_mem buffer, std::uint64_t offset, std::uint64_t bytes, const void* host) const;

 private:
  // XR_CL_GATE unset: the blocking kernel on a GPU where KernelGate's trial passes, else the user
  // event.
  void choose_gate();

  DeviceFacts facts_;
  DeviceTimeout timeout_;
  ContextOwner context_;
  QueueOwner queue_;
  std::unique_ptr<Context> library_;
  GateKind gate_;
  std::string gate_why_;
  std::unique_ptr<KernelGate> kernel_gate_;  // with GateKind::kernel; released before the queue
};

// A new buffer of `bytes` (at least 1). Error(out_of_memory) when the device cannot hold it.
MemOwner make_buffer(const Device& device, std::uint64_t bytes,
                     cl_mem_flags flags = CL_MEM_READ_WRITE);

}  // namespace xr::opencl
