#include "current_device.hpp"

#include <map>
#include <mutex>

#include "cuda_check.hpp"

namespace xr::cuda {

const DeviceLimits& current_device_limits() {
  int device = 0;
  XR_CUDA_CHECK(cudaGetDevice(&device));
  static std::mutex mutex;
  static std::map<int, DeviceLimits> read;  // never erased: references stay valid
  const std::lock_guard lock(mutex);
  auto it = read.find(device);
  if (it == read.end()) it = read.emplace(device, query_limits(device)).first;
  return it->second;
}

}  // namespace xr::cuda
