// Checked OpenCL calls: XR_CL(call) throws xr::Error with file, line, the call's text and the
// error's number; XR_CL_MAKE(clCreateX(..., status)) for the calls that report through their
// last argument (`status` is the macro's own cl_int*).
#pragma once

#include <CL/cl.h>

#include <string>

#include "xreduce/error.hpp"

namespace xr::onebin {

// NVIDIA's -9999 and CL_OUT_OF_RESOURCES after a launch: a kernel faulted.
ErrorCategory category_of_cl(cl_int code);
std::string cl_error_name(cl_int code);

inline void cl_check(cl_int code, const char* file, int line, const char* expr) {
  if (code != CL_SUCCESS)
    throw_call_error(category_of_cl(code), file, line, expr, cl_error_name(code));
}

template <class F>
auto cl_checked_make(F&& f, const char* file, int line, const char* expr) {
  cl_int status = CL_SUCCESS;
  auto handle = f(&status);
  cl_check(status, file, line, expr);
  return handle;
}

}  // namespace xr::onebin

#define XR_CL(call) ::xr::onebin::cl_check((call), __FILE__, __LINE__, #call)
#define XR_CL_MAKE(call) \
  ::xr::onebin::cl_checked_make([&](cl_int* status) { return call; }, __FILE__, __LINE__, #call)
