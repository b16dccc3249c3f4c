// The CUDA device of the experiment: device 0 and its primary context, current on this thread,
// the context the library's runtime calls use too; its UUID finds the same GPU in Vulkan and
// OpenCL.
#pragma once

#include <cuda.h>

#include <array>
#include <cstdint>
#include <string>

namespace xr::onebin {

using DeviceUuid = std::array<unsigned char, 16>;

class CudaDevice {
 public:
  CudaDevice();
  CudaDevice(const CudaDevice&) = delete;
  CudaDevice& operator=(const CudaDevice&) = delete;
  ~CudaDevice();

  CUdevice device() const { return device_; }
  const DeviceUuid& uuid() const { return uuid_; }
  const std::string& name() const { return name_; }
  std::uint64_t l2_bytes() const { return l2_bytes_; }
  int sm_count() const { return sm_count_; }
  // "13.0" (cuDriverGetVersion)
  const std::string& driver_api() const { return driver_api_; }

 private:
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  DeviceUuid uuid_{};
  std::string name_, driver_api_;
  std::uint64_t l2_bytes_ = 0;
  int sm_count_ = 0;
};

// "GPU-xxxxxxxx-xxxx-..." as nvidia-smi writes a UUID.
std::string uuid_text(const DeviceUuid& u);

}  // namespace xr::onebin
