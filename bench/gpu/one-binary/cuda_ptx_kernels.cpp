#include "cuda_ptx_kernels.hpp"

#include <algorithm>
#include <cstdint>
#include <map>

namespace xr::onebin {

JitModule jit_module(const std::string& ptx) {
  std::string info(16384, '\0'), error(16384, '\0');
  CUjit_option options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {info.data(), reinterpret_cast<void*>(std::uintptr_t(info.size())), error.data(),
                    reinterpret_cast<void*>(std::uintptr_t(error.size()))};
  CUmodule m = nullptr;
  const CUresult r = cuModuleLoadDataEx(&m, ptx.c_str(), 4, options, values);
  if (r != CUDA_SUCCESS)
    throw Error(category_of(r), "cuda: cuModuleLoadDataEx of the PTX failed: " + describe(r) +
                                    ": " + error.c_str());
  return {ModuleOwner(m), info.c_str()};
}

CudaPtxKernels::CudaPtxKernels(const PtxModule& ptx, const Recording& r)
    : jit_(jit_module(ptx.text())) {
  std::map<std::string, unsigned> shared;  // the most any step of the kernel launches with
  for (const Step& step : r.steps)
    if (const auto* k = std::get_if<KernelStep>(&step))
      shared[k->entry] = std::max(shared[k->entry], k->shared_bytes);
  for (const Step& step : r.steps) {
    const auto* k = std::get_if<KernelStep>(&step);
    CUfunction f = nullptr;
    if (k) {
      XR_CU_CHECK(cuModuleGetFunction(&f, jit_.module.get(), k->entry.c_str()));
      XR_CU_CHECK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                     static_cast<int>(shared.at(k->entry))));
    }
    by_step_.push_back(f);
  }
}

}  // namespace xr::onebin
