#include "vk_buffer.hpp"

#include <algorithm>

#include "vk_device.hpp"
#include "vk_internal.hpp"
#include "xreduce/error.hpp"
#include "xreduce/units.hpp"

namespace xr::vulkan {
namespace {

std::uint32_t choose_memory_type(const vk::PhysicalDeviceMemoryProperties& mem,
                                 std::uint32_t allowed, MemoryKind kind) {
  using M = vk::MemoryPropertyFlagBits;
  // Preferences in order; the first memory type that has all the flags of one wins.
  std::vector<vk::MemoryPropertyFlags> wanted;
  switch (kind) {
    case MemoryKind::device_local:
      wanted = {M::eDeviceLocal, {}};
      break;
    case MemoryKind::upload:
      wanted = {M::eHostVisible | M::eHostCoherent};
      break;
    case MemoryKind::readback:
      wanted = {M::eHostVisible | M::eHostCoherent | M::eHostCached,
                M::eHostVisible | M::eHostCoherent};
      break;
  }
  for (const auto& flags : wanted)
    for (std::uint32_t i = 0; i < mem.memoryTypeCount; ++i)
      if ((allowed & (1u << i)) && (mem.memoryTypes[i].propertyFlags & flags) == flags) return i;
  throw Error(ErrorCategory::unavailable, "no Vulkan memory type fits a buffer of this kind");
}

}  // namespace

std::uint64_t block_limit(const DeviceFacts& f, const VulkanKnobs& knobs) {
  if (knobs.block_bytes && (!f.max_allocation || knobs.block_bytes < f.max_allocation))
    return knobs.block_bytes;
  return f.max_allocation;
}

BufferLimit largest_buffer(const DeviceFacts& f, const VulkanKnobs& knobs) {
  BufferLimit limit{f.device_local_bytes ? f.device_local_bytes : UINT64_MAX, ""};
  std::string bound = "the device-local heap";
  const auto cap = [&](std::uint64_t bytes, const char* what) {
    if (bytes && bytes < limit.bytes) {
      limit.bytes = bytes;
      bound = what;
    }
  };
  cap(f.max_buffer, "maxBufferSize");
  const std::uint64_t block = block_limit(f, knobs);
  std::string blocks;
  if (block && limit.bytes > block) {
    if (f.sparse_binding) {
      cap(f.sparse_address_space, "sparseAddressSpaceSize");
      blocks = ", bound sparsely in blocks of at most " + format_gib(block) +
               (block == f.max_allocation ? " (maxMemoryAllocationSize)" : " (XR_VK_BLOCK_BYTES)");
    } else {
      // Without sparse binding the array is one allocation, past the soft limit of
      // maxMemoryAllocationSize (the spec lets the device refuse it: then out_of_memory).
      blocks = ", one allocation past maxMemoryAllocationSize (" + format_gib(f.max_allocation) +
               "), which the device may refuse";
    }
  }
  limit.bytes &= ~std::uint64_t{15};
  limit.why = format_gib(limit.bytes) + ": " + bound + blocks;
  return limit;
}

Buffer::Buffer(Device& device, vk::DeviceSize bytes, vk::BufferUsageFlags usage, MemoryKind kind)
    : size_(bytes) {
  const DeviceFacts& facts = device.facts();
  if (facts.max_buffer && bytes > facts.max_buffer)
    throw Error(ErrorCategory::unsupported, "a buffer of " + std::to_string(bytes) +
                                                " bytes exceeds this device's maxBufferSize of " +
                                                std::to_string(facts.max_buffer) + " bytes");
  const std::uint64_t block = block_limit(facts, device.knobs());
  const bool sparse =
      kind == MemoryKind::device_local && block && bytes > block && facts.sparse_binding;
  const bool addressed = bool(usage & vk::BufferUsageFlagBits::eShaderDeviceAddress);
  vk::BufferCreateInfo info({}, bytes, usage, vk::SharingMode::eExclusive);
  if (sparse) info.flags = vk::BufferCreateFlagBits::eSparseBinding;
  buffer_ = XR_VK_CHECK(device.handle().createBuffer(info));
  const auto req = buffer_.getMemoryRequirements();
  const auto type =
      choose_memory_type(facts.physical.getMemoryProperties(), req.memoryTypeBits, kind);
  if (sparse)
    bind_sparsely(device, req, type, block);
  else
    bind_whole(device, req, type, addressed);
  if (addressed) address_ = device.handle().getBufferAddress(vk::BufferDeviceAddressInfo(*buffer_));
  if (kind != MemoryKind::device_local)
    mapped_ = XR_VK_CHECK(memory_.front().mapMemory(0, VK_WHOLE_SIZE));
}

void Buffer::bind_whole(Device& device, const vk::MemoryRequirements& req, std::uint32_t type,
                        bool addressed) {
  vk::StructureChain<vk::MemoryAllocateInfo, vk::MemoryAllocateFlagsInfo> alloc(
      vk::MemoryAllocateInfo(req.size, type),
      vk::MemoryAllocateFlagsInfo(vk::MemoryAllocateFlagBits::eDeviceAddress));
  if (!addressed) alloc.unlink<vk::MemoryAllocateFlagsInfo>();
  memory_.push_back(
      XR_VK_CHECK(device.handle().allocateMemory(alloc.get<vk::MemoryAllocateInfo>())));
  buffer_.bindMemory(*memory_.front(), 0);
}

void Buffer::bind_sparsely(Device& device, const vk::MemoryRequirements& req, std::uint32_t type,
                           vk::DeviceSize block) {
  // Blocks are whole multiples of the sparse alignment; the last one ends with the buffer.
  block -= block % req.alignment;
  if (block == 0)
    throw Error(ErrorCategory::unsupported,
                "the sparse block size is below this device's alignment of " +
                    std::to_string(req.alignment) + " bytes");
  const vk::MemoryAllocateFlagsInfo flags(vk::MemoryAllocateFlagBits::eDeviceAddress);
  std::vector<vk::SparseMemoryBind> binds;
  for (vk::DeviceSize offset = 0; offset < req.size; offset += block) {
    const vk::DeviceSize bytes = std::min(block, req.size - offset);
    memory_.push_back(
        XR_VK_CHECK(device.handle().allocateMemory(vk::MemoryAllocateInfo(bytes, type, &flags))));
    binds.emplace_back(offset, bytes, *memory_.back(), 0);
  }
  device.bind_sparse(*buffer_, binds);
}

}  // namespace xr::vulkan
