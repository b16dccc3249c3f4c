#include "cl_check.hpp"

namespace xr::onebin {

ErrorCategory category_of_cl(cl_int code) {
  switch (code) {
    case CL_OUT_OF_HOST_MEMORY:
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
      return ErrorCategory::out_of_memory;
    case CL_DEVICE_NOT_FOUND:
    case CL_DEVICE_NOT_AVAILABLE:
      return ErrorCategory::unavailable;
    case CL_INVALID_BINARY:
    case CL_BUILD_PROGRAM_FAILURE:
    case CL_INVALID_KERNEL_NAME:
      return ErrorCategory::unsupported;
    default:  // -9999 (NVIDIA: a kernel faulted), CL_OUT_OF_RESOURCES, invalid arguments
      return ErrorCategory::device_lost;
  }
}

std::string cl_error_name(cl_int code) {
  switch (code) {
    case -9999:
      return "-9999 (NVIDIA: the kernel faulted: an out-of-bounds access?)";
    case CL_OUT_OF_RESOURCES:
      return "CL_OUT_OF_RESOURCES (-5)";
    case CL_INVALID_BINARY:
      return "CL_INVALID_BINARY (-42)";
    case CL_BUILD_PROGRAM_FAILURE:
      return "CL_BUILD_PROGRAM_FAILURE (-11)";
    case CL_INVALID_ARG_SIZE:
      return "CL_INVALID_ARG_SIZE (-51)";
    case CL_INVALID_KERNEL_ARGS:
      return "CL_INVALID_KERNEL_ARGS (-52)";
    case CL_INVALID_WORK_GROUP_SIZE:
      return "CL_INVALID_WORK_GROUP_SIZE (-54)";
    default:
      return "cl_int " + std::to_string(code);
  }
}

}  // namespace xr::onebin
