#include "vk_check.hpp"

namespace xr::vulkan {

ErrorCategory category_of(vk::Result result) {
  switch (result) {
    case vk::Result::eErrorOutOfHostMemory:
    case vk::Result::eErrorOutOfDeviceMemory:
    case vk::Result::eErrorOutOfPoolMemory:
    case vk::Result::eErrorFragmentation:
      return ErrorCategory::out_of_memory;
    case vk::Result::eErrorInitializationFailed:
    case vk::Result::eErrorIncompatibleDriver:
    case vk::Result::eErrorLayerNotPresent:
    case vk::Result::eErrorExtensionNotPresent:
      return ErrorCategory::unavailable;
    case vk::Result::eErrorFeatureNotPresent:
    case vk::Result::eErrorFormatNotSupported:
      return ErrorCategory::unsupported;
    default:
      return ErrorCategory::device_lost;
  }
}

}  // namespace xr::vulkan
