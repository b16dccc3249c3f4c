#include "cuda_check.hpp"

#include <atomic>
#include <cstdio>

namespace xr::cuda {

ErrorCategory classify(cudaError_t e) {
  switch (e) {
    case cudaErrorMemoryAllocation:
      return ErrorCategory::out_of_memory;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInitializationError:
    case cudaErrorStubLibrary:
    case cudaErrorCallRequiresNewerDriver:
    case cudaErrorDevicesUnavailable:
    case cudaErrorSystemNotReady:
    case cudaErrorSystemDriverMismatch:
    case cudaErrorCompatNotSupportedOnDevice:
    case cudaErrorInvalidDevice:
      return ErrorCategory::unavailable;
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorUnsupportedPtxVersion:
    case cudaErrorInvalidDeviceFunction:
      return ErrorCategory::unsupported;
    default:  // faults, launch failures, illegal addresses, ECC errors: the context is gone
      return ErrorCategory::device_lost;
  }
}

namespace {

// The errors of a kernel that faulted: the context is lost with them.
bool is_kernel_fault(cudaError_t e) {
  switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorIllegalInstruction:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorLaunchFailure:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string describe(cudaError_t e) {
  std::string s = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
  if (is_kernel_fault(e)) s += ": " + std::string(kKernelFaulted);
  if (e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction)
    s += " (rebuild with -DCMAKE_CUDA_ARCHITECTURES=<this GPU's sm>, e.g. native)";
  return s;
}

namespace {
// Set by the first error that lost the context (a kernel's fault is sticky): every later call
// fails the same way, so the owners' releases on the way out have nothing to add to that error.
std::atomic<bool> g_context_lost{false};
}  // namespace

void throw_cuda_error(cudaError_t e, const char* file, int line, const char* expr) {
  const ErrorCategory category = classify(e);
  if (category == ErrorCategory::device_lost) g_context_lost.store(true);
  throw_call_error(category, file, line, expr, describe(e));
}

void report_cuda_error(cudaError_t e, const char* file, int line, const char* expr) noexcept {
  // At process exit the runtime may unload before static owners release: nothing leaks then.
  if (e == cudaErrorCudartUnloading) return;
  if (g_context_lost.load()) return;
  std::fprintf(stderr, "xreduce: %s:%d: `%s` failed: %s: %s\n", file, line, expr,
               cudaGetErrorName(e), cudaGetErrorString(e));
}

}  // namespace xr::cuda
