#include "cl_device.hpp"

#include <CL/cl_ext.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "cl_check.hpp"

namespace xr::onebin {
namespace {

std::string device_text(cl_device_id d, cl_device_info what) {
  std::size_t n = 0;
  XR_CL_CHECK(clGetDeviceInfo(d, what, 0, nullptr, &n));
  std::string s(n, '\0');
  XR_CL_CHECK(clGetDeviceInfo(d, what, n, s.data(), nullptr));
  return s.c_str();
}

bool has_uuid(cl_device_id d, const DeviceUuid& uuid) {
  if (device_text(d, CL_DEVICE_EXTENSIONS).find("cl_khr_device_uuid") == std::string::npos)
    return false;
  cl_uchar got[CL_UUID_SIZE_KHR] = {};
  XR_CL_CHECK(clGetDeviceInfo(d, CL_DEVICE_UUID_KHR, sizeof got, got, nullptr));
  return std::equal(uuid.begin(), uuid.end(), got);
}

std::vector<cl_device_id> gpus() {
  cl_uint np = 0;
  XR_CL_CHECK(clGetPlatformIDs(0, nullptr, &np));
  std::vector<cl_platform_id> platforms(np);
  XR_CL_CHECK(clGetPlatformIDs(np, platforms.data(), nullptr));
  std::vector<cl_device_id> all;
  for (cl_platform_id p : platforms) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 0, nullptr, &nd) != CL_SUCCESS) continue;
    std::vector<cl_device_id> ds(nd);
    XR_CL_CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, nd, ds.data(), nullptr));
    all.insert(all.end(), ds.begin(), ds.end());
  }
  return all;
}

cl_device_id find_device(const DeviceUuid& uuid) {
  for (cl_device_id d : gpus())
    if (has_uuid(d, uuid)) return d;
  throw Error(ErrorCategory::unavailable,
              "opencl: no GPU reports the CUDA device's UUID " + uuid_text(uuid));
}

}  // namespace

ClDevice::ClDevice(const DeviceUuid& uuid) : device_(find_device(uuid)) {
  context_ = opencl::ContextOwner(
      XR_CL_CREATE(clCreateContext(nullptr, 1, &device_, nullptr, nullptr, status)));
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  queue_ = opencl::QueueOwner(
      XR_CL_CREATE(clCreateCommandQueueWithProperties(context_.get(), device_, props, status)));
  describe_ = device_text(device_, CL_DEVICE_NAME) + ", " +
              device_text(device_, CL_DEVICE_VERSION) + ", driver " +
              device_text(device_, CL_DRIVER_VERSION);
}

opencl::ProgramOwner ClDevice::build_ptx(const std::string& ptx) const {
  const std::size_t size = ptx.size();
  const auto* bytes = reinterpret_cast<const unsigned char*>(ptx.c_str());
  cl_int binary_status = CL_SUCCESS;
  opencl::ProgramOwner program(XR_CL_CREATE(clCreateProgramWithBinary(
      context_.get(), 1, &device_, &size, &bytes, &binary_status, status)));
  XR_CL_CHECK(binary_status);
  if (const cl_int built = clBuildProgram(program.get(), 1, &device_, "", nullptr, nullptr);
      built != CL_SUCCESS) {
    std::size_t n = 0;
    clGetProgramBuildInfo(program.get(), device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, '\0');
    clGetProgramBuildInfo(program.get(), device_, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    throw Error(ErrorCategory::unsupported, "opencl: clBuildProgram of the PTX failed: " +
                                                opencl::error_name(built) + ": " + log.c_str());
  }
  return program;
}

void ClDevice::wait(cl_event e, const char* what) const {
  XR_CL_CHECK(clFlush(queue_.get()));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  for (;;) {
    cl_int status = CL_QUEUED;
    XR_CL_CHECK(
        clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
    if (status == CL_COMPLETE) return;
    if (status < 0)
      throw Error(opencl::category_of(status),
                  std::string("opencl: ") + what + " failed: " + opencl::error_name(status));
    if (std::chrono::steady_clock::now() > deadline)
      throw Error(ErrorCategory::device_lost,
                  std::string("opencl: ") + what + " did not finish in 20 s");
    std::this_thread::yield();
  }
}

cl_ulong profiled(cl_event e, cl_profiling_info what) {
  cl_ulong t = 0;
  XR_CL_CHECK(clGetEventProfilingInfo(e, what, sizeof t, &t, nullptr));
  return t;
}

}  // namespace xr::onebin
