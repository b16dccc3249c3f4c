// The library's own call: xr::cuda::Sort::enqueue (its cubin's kernels, launched as the library
// launches them) on CUDA allocations, timed whole by CUDA events; and the call enqueued on any
// set of allocations, for the captures.
#pragma once

#include <cuda.h>

#include "cuda_intervals.hpp"
#include "cuda_slots.hpp"
#include "timed.hpp"
#include "xreduce/cuda/sort.hpp"

namespace xr::onebin {

class LibraryCall : public Timed {
 public:
  LibraryCall(const SortCase& c, CudaGate& gate, std::uint64_t flush_bytes);

  const xr::cuda::Sort& sort() const { return sort_; }
  const SlotSizes& sizes() const { return sizes_; }
  const CudaSlots& slots() const { return slots_; }
  // The call over `slots` on `s` (its allocations, or another set of the same sizes).
  void enqueue(CUstream s, const CudaSlots& slots);

  Sample run(Marks marks) override;
  CallOutput read() override { return slots_.read(case_); }
  bool marks_steps() const override { return false; }

 private:
  const SortCase& case_;
  xr::cuda::Sort sort_;
  SlotSizes sizes_;
  CudaSlots slots_;
  StreamOwner stream_;
  CudaIntervals intervals_;
};

}  // namespace xr::onebin
