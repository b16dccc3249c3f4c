// The Vulkan Reducer: plans a variant's passes per (array, op), records them once into a
// program over the array and scratch, and resubmits it for every call.
#pragma once

#include <memory>

#include "vk_device.hpp"
#include "vk_internal.hpp"
#include "xreduce/backend.hpp"

namespace xr::vulkan {

std::unique_ptr<Reducer> make_reducer(std::shared_ptr<Device> device, const ReduceSpec& spec);

}  // namespace xr::vulkan
