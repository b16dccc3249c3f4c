// The PTX's kernels compiled by CUDA's driver (cuModuleLoadDataEx: the JIT the Vulkan and
// OpenCL drivers have beside them), one function per kernel step of a recording, each allowed
// the dynamic shared memory its step launches with, as the library allows its own.
#pragma once

#include <string>
#include <vector>

#include "cu_owners.hpp"
#include "recording.hpp"
#include "xreduce/ptx_module.hpp"

namespace xr::onebin {

// A module the JIT compiled and what it logged, made together by jit_module: a member built
// from another member's constructor would write into a string not yet constructed.
struct JitModule {
  ModuleOwner module;
  std::string log;
};

// cuModuleLoadDataEx of `ptx` with the JIT's logs: Error with the error log when it fails.
JitModule jit_module(const std::string& ptx);

class CudaPtxKernels {
 public:
  CudaPtxKernels(const PtxModule& ptx, const Recording& r);

  // Per step: its function, or null for a fill.
  const std::vector<CUfunction>& by_step() const { return by_step_; }
  const std::string& jit_log() const { return jit_.log; }

 private:
  JitModule jit_;
  std::vector<CUfunction> by_step_;
};

}  // namespace xr::onebin
