// The tool's CUDA context: move-only owners of device resources, and the per-device Context
// (stream, staging buffers, L2 flush, bandwidth probes) over the library's checked calls and
// device limits.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "cuda_check.hpp"
#include "cuda_knobs.hpp"
#include "device_limits.hpp"
#include "xreduce/backend.hpp"
#include "xreduce/error.hpp"

namespace xr::cuda {

// --- move-only owners (unique_ptr with a no-throw deleter: copy is deleted by construction) ---
struct DeviceFree {
  void operator()(void* p) const noexcept { XR_CUDA_CHECK_NOTHROW(cudaFree(p)); }
};
struct PinnedFree {
  void operator()(void* p) const noexcept { XR_CUDA_CHECK_NOTHROW(cudaFreeHost(p)); }
};
struct EventDestroy {
  void operator()(cudaEvent_t e) const noexcept { XR_CUDA_CHECK_NOTHROW(cudaEventDestroy(e)); }
};
struct StreamDestroy {
  void operator()(cudaStream_t s) const noexcept { XR_CUDA_CHECK_NOTHROW(cudaStreamDestroy(s)); }
};

// Device memory of `bytes` bytes (256-byte aligned, as cudaMalloc guarantees).
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes);
  void* get() const { return ptr_.get(); }
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_.get());
  }
  std::size_t bytes() const { return bytes_; }

 private:
  std::unique_ptr<void, DeviceFree> ptr_;
  std::size_t bytes_ = 0;
};

// Page-locked host memory: the only kind the copy engines read at full speed.
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t bytes);
  void* get() const { return ptr_.get(); }
  std::size_t bytes() const { return bytes_; }

 private:
  std::unique_ptr<void, PinnedFree> ptr_;
  std::size_t bytes_ = 0;
};

class Event {
 public:
  Event();  // default flags: timing enabled
  cudaEvent_t get() const { return ev_.get(); }

 private:
  std::unique_ptr<CUevent_st, EventDestroy> ev_;
};

class Stream {
 public:
  Stream();  // non-blocking with respect to the legacy default stream
  cudaStream_t get() const { return s_.get(); }

 private:
  std::unique_ptr<CUstream_st, StreamDestroy> s_;
};

// What `xreduce list` shows of device `index`.
DeviceInfo describe_device(int index);
// 32 lowercase hex digits of the 16 UUID bytes in order: the spelling Vulkan's
// VkPhysicalDeviceIDProperties::deviceUUID gets, so both backends name the same GPU alike.
std::string uuid_hex(const cudaUUID_t& uuid);

// Everything bound to the selected device: its stream, the pinned staging buffers of uploads,
// the L2-flush buffer and the measured read bandwidth. Created on first use after
// select_device; arrays and reducers share it, so it lives as long as the last of them.
class Context {
 public:
  Context(int device, CudaKnobs knobs);
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  int device() const { return limits_.device; }
  const CudaKnobs& knobs() const { return knobs_; }
  const DeviceLimits& limits() const { return limits_; }
  cudaStream_t stream() const { return stream_.get(); }
  // Makes this context's device current on the calling thread (cheap when it already is).
  void activate() const;

  // Host -> device through two pinned staging chunks: the DMA of one overlaps the (parallel)
  // host copy into the other. Blocking.
  void upload(void* dst, const void* src, std::size_t bytes);
  // Device -> host through the same chunks: the host copy out of one overlaps the DMA into the
  // other. Blocking.
  void download(void* dst, const void* src, std::size_t bytes);
  // New device memory of `bytes`, zero-filled before it returns (a variant's scratch).
  DeviceBuffer zeroed(std::size_t bytes);

  // Overwrites a buffer of twice the L2 size so the next timed run reads from DRAM. Blocking.
  void flush_l2();
  // Streaming 16-byte read kernel over ~1 GiB, median of several runs; measured once.
  double read_bandwidth_gbps();
  // Device-to-device cudaMemcpyAsync of ~1 GiB into another ~1 GiB, bytes read + written per
  // second (what a scan moves), median of several runs; measured once.
  double copy_bandwidth_gbps();

 private:
  template <class Enqueue>
  double probe_gbps(double bytes, Enqueue&& enqueue);
  // Bytes per probe buffer: ~1 GiB, or a quarter of free memory split over `buffers`.
  std::size_t probe_bytes(int buffers) const;
  void ensure_staging();

  DeviceLimits limits_;
  CudaKnobs knobs_;
  Stream stream_;
  PinnedBuffer staging_[2];
  Event staged_[2];
  DeviceBuffer flush_;
  double read_gbps_ = 0;
  double copy_gbps_ = 0;
};

}  // namespace xr::cuda
