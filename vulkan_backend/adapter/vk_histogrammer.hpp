// The Vulkan Histogrammer: plans a variant's passes through the library's Histogram and
// allocates its scratch once per (dtype, n, levels), records a program per set of arrays and
// resubmits it for every call.
#pragma once

#include <memory>
#include <string_view>

#include "vk_device.hpp"
#include "vk_internal.hpp"
#include "xreduce/backend.hpp"

namespace xr::vulkan {

std::unique_ptr<Histogrammer> make_histogrammer(std::shared_ptr<Device> device,
                                                std::string_view id);

}  // namespace xr::vulkan
