// The Vulkan half of the per-API overhead table (Backend::measure_overheads): what a user pays
// around the shaders on each submission path Vulkan offers.
#pragma once

#include <vector>

#include "vk_device.hpp"
#include "xreduce/backend.hpp"

namespace xr::vulkan {

// Empty-dispatch GPU time (timestamps around back-to-back dispatches in one command buffer),
// host submit cost, the host time per call of one submit per call against one command buffer
// holding every call, and host round trips: fence (blocking and polled) and timeline semaphore
// (blocking and polled) where the device has one.
std::vector<Overhead> measure_vulkan_overheads(Device& device);

}  // namespace xr::vulkan
