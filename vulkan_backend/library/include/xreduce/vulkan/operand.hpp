// Where a reduce or scan finds an operand: a byte offset into one of the caller's buffers, or a
// buffer device address.
#pragma once

#include <vulkan/vulkan_core.h>

namespace xr::vulkan {

// How the caller will pass a Scan's or Reduce's operands, fixed when it is made: buffers (the
// library binds them by push descriptor where VK_KHR_push_descriptor is enabled and they fit
// one binding, with 32-bit indices; else it takes their device addresses) or addresses.
enum class OperandKind { buffers, addresses };

struct Operand {
  VkBuffer buffer = VK_NULL_HANDLE;  // with `offset`; or VK_NULL_HANDLE and `address`
  VkDeviceSize offset = 0;
  VkDeviceAddress address = 0;

  static Operand of(VkBuffer buffer, VkDeviceSize offset = 0) { return {buffer, offset, 0}; }
  static Operand at(VkDeviceAddress address) { return {VK_NULL_HANDLE, 0, address}; }
};

}  // namespace xr::vulkan
