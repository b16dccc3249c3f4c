// A recording replayed through CUDA's driver API on allocations of its own: each kernel step by
// cuLaunchKernel of the function given for it (the library's own cubin function, or the PTX's
// JIT), its parameter block rebased onto these allocations; each fill by cuMemsetD*Async.
#pragma once

#include <cstdint>
#include <vector>

#include "cuda_intervals.hpp"
#include "cuda_slots.hpp"
#include "timed.hpp"

namespace xr::onebin {

class CudaReplay : public Timed {
 public:
  // `functions`: one per step of `r`, null for a fill. Error when one of a kernel step is null
  // or a handle the driver does not know, naming the step.
  CudaReplay(const Recording& r, std::vector<CUfunction> functions, const SortCase& c,
             CudaGate& gate, std::uint64_t flush_bytes);

  Sample run(Marks marks) override;
  CallOutput read() override { return slots_.read(case_); }
  bool marks_steps() const override { return true; }

 private:
  void enqueue(std::size_t step, CUstream s);

  const Recording& recording_;
  const SortCase& case_;
  std::vector<CUfunction> functions_;
  CudaSlots slots_;
  std::vector<std::vector<std::byte>> params_;  // per step, rebased
  std::vector<std::vector<void*>> param_ptrs_;  // per step, cuLaunchKernel's kernelParams
  StreamOwner stream_;
  CudaIntervals intervals_;
};

}  // namespace xr::onebin
