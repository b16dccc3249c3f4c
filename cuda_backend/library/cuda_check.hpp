// Layer 1 of the CUDA library: checked calls. Every CUDA call goes through XR_CUDA_CHECK (throws
// xr::Error with file, line, the call's text and a category from the cudaError_t), destructors
// through its no-throw twin, every launch through XR_CUDA_CHECK_LAUNCH.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "xreduce/error.hpp"

namespace xr::cuda {

// Maps a CUDA error to the category the tool turns into an exit code: allocation failures are
// out_of_memory, a missing driver or device is unavailable, a missing kernel image is
// unsupported, everything else (faults, launch failures) means the device is lost.
ErrorCategory classify(cudaError_t e);
// "cudaErrorX: text" for messages.
std::string describe(cudaError_t e);
[[noreturn]] void throw_cuda_error(cudaError_t e, const char* file, int line, const char* expr);
// The no-throw twin for destructors: prints the failure to stderr, unless an earlier error lost
// the context (then every release fails alike, and that error is the one to report).
void report_cuda_error(cudaError_t e, const char* file, int line, const char* expr) noexcept;

}  // namespace xr::cuda

#define XR_CUDA_CHECK(expr)                                                  \
  do {                                                                       \
    const cudaError_t xr_cuda_err_ = (expr);                                 \
    if (xr_cuda_err_ != cudaSuccess)                                         \
      ::xr::cuda::throw_cuda_error(xr_cuda_err_, __FILE__, __LINE__, #expr); \
  } while (0)

#define XR_CUDA_CHECK_NOTHROW(expr)                                           \
  do {                                                                        \
    const cudaError_t xr_cuda_err_ = (expr);                                  \
    if (xr_cuda_err_ != cudaSuccess)                                          \
      ::xr::cuda::report_cuda_error(xr_cuda_err_, __FILE__, __LINE__, #expr); \
  } while (0)

// After every <<<...>>>: configuration errors surface here, faults at the next synchronisation.
#define XR_CUDA_CHECK_LAUNCH() XR_CUDA_CHECK(cudaGetLastError())
