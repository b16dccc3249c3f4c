#include "cu_check.hpp"

#include <cstdio>

namespace xr::onebin {

ErrorCategory category_of(CUresult r) {
  switch (r) {
    case CUDA_ERROR_OUT_OF_MEMORY:
      return ErrorCategory::out_of_memory;
    case CUDA_ERROR_NO_DEVICE:
    case CUDA_ERROR_NOT_INITIALIZED:
    case CUDA_ERROR_INVALID_DEVICE:
    case CUDA_ERROR_STUB_LIBRARY:
    case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
      return ErrorCategory::unavailable;
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
    case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
    case CUDA_ERROR_INVALID_PTX:
    case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
    case CUDA_ERROR_NOT_SUPPORTED:
    case CUDA_ERROR_NOT_FOUND:
      return ErrorCategory::unsupported;
    default:  // faults, launch failures: the context is gone
      return ErrorCategory::device_lost;
  }
}

std::string describe(CUresult r) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (cuGetErrorName(r, &name) != CUDA_SUCCESS) name = "CUresult";
  if (cuGetErrorString(r, &text) != CUDA_SUCCESS) text = "unknown error";
  return std::string(name) + " (" + std::to_string(int(r)) + "): " + text;
}

void throw_cu_error(CUresult r, const char* file, int line, const char* expr) {
  throw_call_error(category_of(r), file, line, expr, describe(r));
}

void report_cu_error(CUresult r, const char* file, int line, const char* expr) noexcept {
  std::fprintf(stderr, "%s:%d: `%s` failed: %s\n", file, line, expr, describe(r).c_str());
}

}  // namespace xr::onebin
