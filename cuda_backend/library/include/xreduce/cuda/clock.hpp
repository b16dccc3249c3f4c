// The SM clock the device runs at (docs/library.md, "The clock"): one thread reading clock64
// against %globaltimer over a short window, as nvbench's gpu_frequency does. A GPU idles its SMs
// at a fraction of its working clock: read it beside a time to know what the time means.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>

#include "xreduce/error.hpp"
#include "xreduce/state_ptr.hpp"

namespace xr::cuda {

class SmClock {
 public:
  // For the current device (cudaGetDevice): 16 bytes of mapped pinned memory for its readings.
  // Throws xr::Error: unavailable (no device), out_of_memory.
  SmClock();

  // The SM clock in MHz averaged over about `window_us` microseconds, enqueued on `stream` after
  // its earlier work and waited for. %globaltimer ticks every microsecond or so: the window
  // starts on one of its edges, and 100 us reads the clock to 1 %. Never inside a timed interval.
  // One thread at a time per SmClock.
  double read_mhz(cudaStream_t stream, double window_us = 100) const;
  // Enqueues on `stream` one thread spinning for about `us` microseconds (not waited for): work
  // that keeps an idle device busy, so that its clock rises.
  void spin(cudaStream_t stream, double us) const;
  // The device's maximum SM clock in MHz (cudaDevAttrClockRate).
  double max_mhz() const;

  struct State;

 private:
  StatePtr<State> state_;
};

}  // namespace xr::cuda
