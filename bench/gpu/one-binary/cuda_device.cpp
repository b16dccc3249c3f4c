#include "cuda_device.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>

#include "cu_check.hpp"

namespace xr::onebin {
namespace {

int attribute(CUdevice d, CUdevice_attribute a) {
  int v = 0;
  XR_CU_CHECK(cuDeviceGetAttribute(&v, a, d));
  return v;
}

}  // namespace

CudaDevice::CudaDevice() {
  XR_CU_CHECK(cuInit(0));
  XR_CU_CHECK(cuDeviceGet(&device_, 0));
  XR_CU_CHECK(cuDevicePrimaryCtxRetain(&context_, device_));
  XR_CU_CHECK(cuCtxSetCurrent(context_));
  // The runtime (the library's calls) binds the same primary context.
  if (const cudaError_t e = cudaSetDevice(0); e != cudaSuccess)
    throw Error(ErrorCategory::unavailable,
                std::string("cudaSetDevice(0) failed: ") + cudaGetErrorString(e));
  CUuuid u{};
  XR_CU_CHECK(cuDeviceGetUuid(&u, device_));
  std::memcpy(uuid_.data(), u.bytes, uuid_.size());
  char name[256] = {};
  XR_CU_CHECK(cuDeviceGetName(name, sizeof name, device_));
  name_ = name;
  l2_bytes_ = static_cast<std::uint64_t>(attribute(device_, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
  sm_count_ = attribute(device_, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  int version = 0;
  XR_CU_CHECK(cuDriverGetVersion(&version));
  driver_api_ = std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

CudaDevice::~CudaDevice() {
  XR_CU_CHECK_NOTHROW(cuDevicePrimaryCtxRelease(device_));
}

std::string uuid_text(const DeviceUuid& u) {
  std::string s = "GPU-";
  char hex[3];
  for (std::size_t i = 0; i < u.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    std::snprintf(hex, sizeof hex, "%02x", u[i]);
    s += hex;
  }
  return s;
}

}  // namespace xr::onebin
