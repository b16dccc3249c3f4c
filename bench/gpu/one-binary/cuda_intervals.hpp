// Cold intervals on a CUDA stream, as the tool times CUDA: L2 flushed by a memset of twice its
// size, the stream held on the gate while the host enqueues, CUDA events at the marks.
#pragma once

#include <cstdint>
#include <vector>

#include "cu_owners.hpp"
#include "cuda_gate.hpp"

namespace xr::onebin {

class CudaIntervals {
 public:
  CudaIntervals(CudaGate& gate, std::uint64_t flush_bytes);

  // The flush, the gate, the first mark.
  void begin(CUstream s);
  void mark(CUstream s);
  // Releases the gate, waits for the stream (20 s at most: Error(device_lost) past it) and
  // returns the milliseconds between consecutive marks.
  std::vector<double> finish(CUstream s);
  // For a GateRelease around a sample: an enqueue that throws leaves no stream held.
  CudaGate& gate() const { return gate_; }

 private:
  CudaGate& gate_;
  DeviceMemory flush_;
  std::vector<EventOwner> events_;
  std::size_t marks_ = 0;
};

// Waits for `s` to drain, polling, for at most `seconds`: Error(device_lost) past it.
void wait_for_stream(CUstream s, double seconds, const char* what);

}  // namespace xr::onebin
