// The Vulkan anchor of compare --transfers (Backend::measure_link): the host link as Vulkan's own
// copy command sees it, without the staging of the backend's transfer path.
#pragma once

#include <cstdint>

#include "vk_device.hpp"
#include "xreduce/backend.hpp"

namespace xr::vulkan {

// vkCmdCopyBuffer of `bytes` from a host-visible buffer (MemoryKind::upload) into a device-local
// one, and from that into a host-visible buffer (MemoryKind::readback), each timed by timestamps
// around the copy in a pre-recorded command buffer (host time where the queue has none): one
// warm-up, then the median of kLinkRuns. `bytes` is clamped to what one buffer may be on the
// device (one allocation for the host-visible ones), and LinkRate::how says so.
LinkRate measure_vulkan_link(Device& device, std::uint64_t bytes);

}  // namespace xr::vulkan
