// The PTX's kernels compiled by CUDA's driver (cuModuleLoadDataEx: the JIT the Vulkan and
// OpenCL drivers have beside them), one function per kernel step of a recording, each allowed
// the dynamic shared memory its step launches with, as the library allows its own.
#pragma once

#include <string>
#include <vector>

#include "cu_owners.hpp"
#include "ptx_module.hpp"
#include "recording.hpp"

namespace xr::onebin {

class CudaPtxKernels {
 public:
  CudaPtxKernels(const PtxModule& ptx, const Recording& r);

  // Per step: its function, or null for a fill.
  const std::vector<CUfunction>& by_step() const { return by_step_; }
  const std::string& jit_log() const { return log_; }

 private:
  ModuleOwner module_;
  std::vector<CUfunction> by_step_;
  std::string log_;
};

}  // namespace xr::onebin
