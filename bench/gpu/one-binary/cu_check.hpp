// Checked calls of CUDA's driver API: XR_CU_CHECK(call) throws xr::Error with file, line, the
// call's text and the error's name, in a category chosen from the CUresult; destructors use its
// no-throw twin.
#pragma once

#include <cuda.h>

#include <string>

#include "xreduce/error.hpp"

namespace xr::onebin {

ErrorCategory category_of(CUresult r);
// "CUDA_ERROR_X: text"
std::string describe(CUresult r);
[[noreturn]] void throw_cu_error(CUresult r, const char* file, int line, const char* expr);
void report_cu_error(CUresult r, const char* file, int line, const char* expr) noexcept;

}  // namespace xr::onebin

#define XR_CU_CHECK(expr)                                                  \
  do {                                                                     \
    const CUresult xr_cu_err_ = (expr);                                    \
    if (xr_cu_err_ != CUDA_SUCCESS)                                        \
      ::xr::onebin::throw_cu_error(xr_cu_err_, __FILE__, __LINE__, #expr); \
  } while (0)

#define XR_CU_CHECK_NOTHROW(expr)                                           \
  do {                                                                      \
    const CUresult xr_cu_err_ = (expr);                                     \
    if (xr_cu_err_ != CUDA_SUCCESS)                                         \
      ::xr::onebin::report_cu_error(xr_cu_err_, __FILE__, __LINE__, #expr); \
  } while (0)
