// The Vulkan Sorter: plans a variant's passes and allocates its scratch once per (n, dtype,
// order, bits, pairs), records a program per set of arrays and resubmits it for every call.
#pragma once

#include <memory>
#include <string_view>

#include "vk_device.hpp"
#include "vk_internal.hpp"
#include "xreduce/backend.hpp"

namespace xr::vulkan {

std::unique_ptr<Sorter> make_sorter(std::shared_ptr<Device> device, std::string_view id);

}  // namespace xr::vulkan
