// The Vulkan Scanner: plans a variant's passes and allocates its scratch once per (n, dtype, op),
// records a program per (input, output, kind) and resubmits it for every call.
#pragma once

#include <memory>

#include "vk_device.hpp"
#include "vk_internal.hpp"
#include "xreduce/backend.hpp"

namespace xr::vulkan {

std::unique_ptr<Scanner> make_scanner(std::shared_ptr<Device> device, const ScanSpec& spec);

}  // namespace xr::vulkan
