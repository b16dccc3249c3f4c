// The Vulkan compute backend: GLSL 450 shaders compiled to SPIR-V at build time, run through
// Vulkan >= 1.2 (Vulkan-Hpp RAII). Plain C++: no Vulkan header leaks out of the backend.
#pragma once

#include <memory>

#include "xreduce/backend.hpp"

namespace xr::vulkan {

// Creates the backend: the Vulkan instance and the list of physical devices, probed once.
// Never throws: without a loader, an instance or a usable device (Vulkan >= 1.2 with a compute
// queue) the backend reports itself unavailable with the reason. With XR_VK_VALIDATION=1 the
// instance enables VK_LAYER_KHRONOS_validation with synchronization validation, and every
// warning or error it reports makes the current or next call throw Error(check_failed); a
// missing layer makes the backend unavailable.
// The backend is single-threaded: one thread drives it and every array and reducer it made.
std::unique_ptr<Backend> make_backend();

}  // namespace xr::vulkan
