// The staging of the Vulkan backend's transfers (Device::write_buffer/read_buffer): two
// host-visible buffers each way and a command buffer and fence per slot, so the device copies
// one chunk while the host fills or drains the other. Sized and chunked as CUDA's
// (xreduce/host_copy.hpp), so both APIs move data by one policy.
#pragma once

#include <array>
#include <optional>

#include "vk_buffer.hpp"
#include "vk_device.hpp"

namespace xr::vulkan {

struct Staging {
  struct Slot {
    std::optional<Buffer> upload;    // created by the first upload
    std::optional<Buffer> readback;  // created by the first readback
    vk::raii::CommandBuffer cmd{nullptr};
    vk::raii::Fence fence{nullptr};
    bool pending = false;  // submitted and not yet waited for
  };
  explicit Staging(Device& device);
  std::array<Slot, 2> slots;
};

}  // namespace xr::vulkan
