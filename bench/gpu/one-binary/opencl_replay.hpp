// A recording replayed through OpenCL on buffers of its own: each kernel's PTX built as a program
// binary of its own, in the form NVIDIA's OpenCL takes (opencl_form); each kernel's parameter
// block rebased onto the buffers' device addresses (ClAddressProbe); each fill a
// clEnqueueFillBuffer; an in-order queue (a CUDA stream's order); profiling events at the marks.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cl_device.hpp"
#include "timed.hpp"
#include "xreduce/ptx_module.hpp"

namespace xr::onebin {

// The PTX of `entry` alone in the form NVIDIA's OpenCL takes: after the kernel's own parameters
// (which nvcc wrote and the driver passes as they are) one `.ptr .global` per buffer of the call,
// so that the driver knows every buffer a launch reaches (the kernel never reads them); and its
// dynamic shared memory, `shared` bytes, declared static (PtxModule::with_static_shared), since
// NVIDIA's OpenCL launches no __local argument past 48 KiB (CL_OUT_OF_RESOURCES on an H200,
// driver 580) but static __local arrays to the SM's limit.
PtxModule opencl_form(const PtxModule& ptx, const std::string& entry, std::uint64_t shared);

class OpenclReplay : public Timed {
 public:
  OpenclReplay(const ClDevice& d, const PtxModule& ptx, const Recording& r, const SortCase& c,
               std::uint64_t flush_bytes);

  Sample run(Marks marks) override;
  CallOutput read() override;
  bool marks_steps() const override { return true; }

 private:
  // Enqueues step `i` behind `wait` (may be null), its event in `event` (may be null).
  void enqueue(std::size_t i, const cl_event* wait, cl_event* event) const;
  // Error(check_failed) for a slot the call has no buffer of.
  cl_mem buffer(Slot s) const;

  const ClDevice& device_;
  const Recording& recording_;
  const SortCase& case_;
  std::map<std::string, opencl::ProgramOwner> programs_;  // one per kernel
  std::map<std::string, opencl::KernelOwner> kernels_;
  std::array<opencl::MemOwner, kSlots> slots_;
  opencl::MemOwner flush_;
  std::uint64_t flush_bytes_;
  std::vector<std::vector<std::byte>> params_;  // per step, rebased
};

}  // namespace xr::onebin
