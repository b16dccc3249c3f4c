#include "vk_check.hpp"

namespace xr::onebin {

ErrorCategory category_of(vk::Result r) {
  switch (r) {
    case vk::Result::eErrorOutOfDeviceMemory:
    case vk::Result::eErrorOutOfHostMemory:
      return ErrorCategory::out_of_memory;
    case vk::Result::eErrorInitializationFailed:
    case vk::Result::eErrorIncompatibleDriver:
    case vk::Result::eErrorExtensionNotPresent:
    case vk::Result::eErrorFeatureNotPresent:
    case vk::Result::eErrorLayerNotPresent:
      return ErrorCategory::unavailable;
    default:  // device lost, a timeout, an invalid module
      return ErrorCategory::device_lost;
  }
}

}  // namespace xr::onebin
