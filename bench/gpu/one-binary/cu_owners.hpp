// Move-only owners of CUDA driver objects: each releases its handle once, in its destructor,
// through the no-throw check. Device and mapped host memory know their size.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <utility>

#include "cu_check.hpp"

namespace xr::onebin {

template <class H, CUresult (*Release)(H)>
class CuOwner {
 public:
  CuOwner() = default;
  explicit CuOwner(H h) : h_(h) {}
  CuOwner(const CuOwner&) = delete;
  CuOwner& operator=(const CuOwner&) = delete;
  CuOwner(CuOwner&& o) noexcept : h_(std::exchange(o.h_, H{})) {}
  CuOwner& operator=(CuOwner&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, H{});
    }
    return *this;
  }
  ~CuOwner() { reset(); }

  H get() const { return h_; }
  void reset() {
    if (h_) XR_CU_CHECK_NOTHROW(Release(std::exchange(h_, H{})));
  }

 private:
  H h_{};
};

using ModuleOwner = CuOwner<CUmodule, cuModuleUnload>;
using EventOwner = CuOwner<CUevent, cuEventDestroy>;
using StreamOwner = CuOwner<CUstream, cuStreamDestroy>;
using GraphOwner = CuOwner<CUgraph, cuGraphDestroy>;

// A stream that does not wait on the legacy default stream.
inline StreamOwner make_stream() {
  CUstream s = nullptr;
  XR_CU_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  return StreamOwner(s);
}

inline EventOwner make_event() {
  CUevent e = nullptr;
  XR_CU_CHECK(cuEventCreate(&e, CU_EVENT_DEFAULT));
  return EventOwner(e);
}

// cuMemAlloc'd device memory (256-byte aligned at least); none for 0 bytes.
class DeviceMemory {
 public:
  DeviceMemory() = default;
  explicit DeviceMemory(std::size_t bytes) : bytes_(bytes) {
    if (bytes) XR_CU_CHECK(cuMemAlloc(&ptr_, bytes));
  }
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  DeviceMemory(DeviceMemory&& o) noexcept
      : ptr_(std::exchange(o.ptr_, 0)), bytes_(std::exchange(o.bytes_, 0)) {}
  DeviceMemory& operator=(DeviceMemory&& o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, 0);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  ~DeviceMemory() { reset(); }

  CUdeviceptr get() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }
  void reset() {
    if (ptr_) XR_CU_CHECK_NOTHROW(cuMemFree(std::exchange(ptr_, 0)));
    bytes_ = 0;
  }

 private:
  CUdeviceptr ptr_ = 0;
  std::size_t bytes_ = 0;
};

// Pinned host memory mapped into the device's address space (a gate's flags).
class MappedHostMemory {
 public:
  explicit MappedHostMemory(std::size_t bytes) {
    XR_CU_CHECK(cuMemHostAlloc(&host_, bytes, CU_MEMHOSTALLOC_DEVICEMAP));
    XR_CU_CHECK(cuMemHostGetDevicePointer(&device_, host_, 0));
  }
  MappedHostMemory(const MappedHostMemory&) = delete;
  MappedHostMemory& operator=(const MappedHostMemory&) = delete;
  ~MappedHostMemory() { XR_CU_CHECK_NOTHROW(cuMemFreeHost(host_)); }

  void* host() const { return host_; }
  CUdeviceptr device() const { return device_; }

 private:
  void* host_ = nullptr;
  CUdeviceptr device_ = 0;
};

}  // namespace xr::onebin
