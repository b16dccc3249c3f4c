// The gate that holds a CUDA stream while the host enqueues a timed call (as the tool's CUDA
// timing does): a one-thread kernel of our own PTX spinning on a word of mapped host memory, so
// that no launch gap of the host falls inside the interval.
#pragma once

#include <string>

#include "cu_owners.hpp"

namespace xr::onebin {

class CudaGate {
 public:
  explicit CudaGate(const std::string& ptx_header);

  // Launches the gate on `s`: what is enqueued after it waits until release().
  void hold(CUstream s);
  void release();
  // Error(device_lost) when the gate gave up (1 s) before it was released: the interval then
  // holds host time.
  void check();

 private:
  ModuleOwner module_;
  CUfunction gate_ = nullptr;
  MappedHostMemory flags_;  // [0] release, [1] timed out
  bool held_ = false;
};

// Releases the gate on every path out of a timed sample.
class GateRelease {
 public:
  explicit GateRelease(CudaGate& g) : gate_(g) {}
  GateRelease(const GateRelease&) = delete;
  GateRelease& operator=(const GateRelease&) = delete;
  ~GateRelease() { gate_.release(); }

 private:
  CudaGate& gate_;
};

}  // namespace xr::onebin
