// Where a reduce, scan or sort finds an operand: a byte offset into one of the caller's buffers,
// or a buffer device address, with the bytes the caller gives it.
#pragma once

#include <vulkan/vulkan_core.h>

namespace xr::vulkan {

// How the caller will pass a Scan's or Reduce's operands, fixed when it is made: buffers (the
// library binds them by push descriptor where VK_KHR_push_descriptor is enabled and they fit
// one binding, with 32-bit indices; else it takes their device addresses) or addresses.
enum class OperandKind { buffers, addresses };

// Every record() checks its operands before it records anything: each one present, aligned and
// holding the bytes the call reaches, and no two sharing a byte (Error(usage), naming them).
// `range` is the bytes from `offset` (or `address`) the operand may use; VK_WHOLE_SIZE: to the
// end of the buffer, bounded by its memory requirements (vkGetBufferMemoryRequirements, which
// may round its size up), and unchecked for an address, whose buffer Vulkan does not tell. Give
// `range` for the exact check. Two operands are compared when both are in one buffer, or both
// are addresses: distinct buffers over one allocation are taken as distinct memory.
struct Operand {
  VkBuffer buffer = VK_NULL_HANDLE;  // with `offset`; or VK_NULL_HANDLE and `address`
  VkDeviceSize offset = 0;
  VkDeviceAddress address = 0;
  VkDeviceSize range = VK_WHOLE_SIZE;

  static Operand of(VkBuffer buffer, VkDeviceSize offset = 0, VkDeviceSize range = VK_WHOLE_SIZE) {
    return {buffer, offset, 0, range};
  }
  static Operand at(VkDeviceAddress address, VkDeviceSize range = VK_WHOLE_SIZE) {
    return {VK_NULL_HANDLE, 0, address, range};
  }
};

}  // namespace xr::vulkan
