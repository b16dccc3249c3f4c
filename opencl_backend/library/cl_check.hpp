// Checked OpenCL calls: XR_CL_CHECK(call) throws xr::Error with file, line, the call's text and
// the error's name, in a category chosen from the cl_int it returned.
#pragma once

#include <CL/cl.h>

#include <string>

#include "xreduce/error.hpp"

namespace xr::opencl {

// "CL_OUT_OF_RESOURCES (-5)"
std::string error_name(cl_int code);
ErrorCategory category_of(cl_int code);
// Whether `code`, as a command's status or a later call's error, says a kernel faulted (NVIDIA's
// -9999 and CL_OUT_OF_RESOURCES, or a command waiting on one that did).
bool is_kernel_fault(cl_int code);
// A failed command's status in words: a fault's with kKernelFaulted, as CUDA's are.
std::string failure_name(cl_int code);

inline void check_call(cl_int code, const char* file, int line, const char* expr) {
  if (code != CL_SUCCESS) throw_call_error(category_of(code), file, line, expr, error_name(code));
}

}  // namespace xr::opencl

// `call` returns a cl_int status.
#define XR_CL_CHECK(call) ::xr::opencl::check_call((call), __FILE__, __LINE__, #call)
// `call` reports its status through its last argument, as the clCreate* functions do:
// XR_CL_CREATE(clCreateBuffer(context, flags, bytes, nullptr, status)): `status` is the
// macro's own cl_int*.
#define XR_CL_CREATE(call) \
  ::xr::opencl::checked_create([&](cl_int* status) { return call; }, __FILE__, __LINE__, #call)

namespace xr::opencl {
template <class F>
auto checked_create(F&& f, const char* file, int line, const char* expr) {
  cl_int status = CL_SUCCESS;
  auto handle = f(&status);
  check_call(status, file, line, expr);
  return handle;
}
}  // namespace xr::opencl
