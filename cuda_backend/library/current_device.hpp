// The limits of the calling thread's current device, read once per device and process.
#pragma once

#include "device_limits.hpp"

namespace xr::cuda {

// Error(unavailable) without a device.
const DeviceLimits& current_device_limits();

}  // namespace xr::cuda
