#include "vk_transfer.hpp"

#include <algorithm>
#include <cstddef>

#include "vk_internal.hpp"
#include "xreduce/host_copy.hpp"

namespace xr::vulkan {

Staging::Staging(Device& device) {
  for (auto& slot : slots) {
    slot.cmd = device.allocate_command_buffer();
    slot.fence = XR_VK_CHECK(device.handle().createFence(vk::FenceCreateInfo()));
  }
}

namespace {

// Waits for the slot's last submission, if any.
void settle(const Device& device, Staging::Slot& slot) {
  if (!slot.pending) return;
  device.wait(slot.fence, device.default_wait());
  slot.pending = false;
}

// Records `record` into the slot's command buffer after the queue barrier and submits it.
template <class Record>
void submit(Device& device, Staging::Slot& slot, Record&& record) {
  slot.cmd.reset();
  slot.cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
  record_queue_barrier(slot.cmd);
  record(slot.cmd);
  slot.cmd.end();
  XR_VK_CHECK(device.handle().resetFences(*slot.fence));
  const vk::CommandBuffer handle = *slot.cmd;
  XR_VK_CHECK(device.queue().submit(vk::SubmitInfo({}, {}, handle), *slot.fence));
  slot.pending = true;
}

}  // namespace

void Device::write_buffer(const Buffer& dst, const void* src, std::size_t bytes,
                          vk::DeviceSize dst_offset) {
  if (bytes == 0) return;
  if (!staging_) staging_ = std::make_unique<Staging>(*this);
  const std::size_t chunk = staging_chunk_bytes(bytes);
  const auto* in = static_cast<const std::byte*>(src);
  for (std::size_t off = 0, i = 0; off < bytes; off += chunk, i ^= 1) {
    Staging::Slot& slot = staging_->slots[i];
    const std::size_t len = std::min(chunk, bytes - off);
    settle(*this, slot);  // its buffer is free once its last copy finished
    if (!slot.upload)
      slot.upload.emplace(*this, kStagingBytes, vk::BufferUsageFlagBits::eTransferSrc,
                          MemoryKind::upload);
    copy_parallel(slot.upload->mapped(), in + off, len);
    submit(*this, slot, [&](const vk::raii::CommandBuffer& cmd) {
      cmd.copyBuffer(slot.upload->handle(), dst.handle(), vk::BufferCopy(0, dst_offset + off, len));
    });
  }
  for (auto& slot : staging_->slots) settle(*this, slot);
}

void Device::read_buffer(const Buffer& src, void* dst, std::size_t bytes) {
  if (bytes == 0) return;
  if (!staging_) staging_ = std::make_unique<Staging>(*this);
  const std::size_t chunk = staging_chunk_bytes(bytes);
  auto* out = static_cast<std::byte*>(dst);
  const auto enqueue = [&](std::size_t off, Staging::Slot& slot) {
    if (!slot.readback)
      slot.readback.emplace(*this, kStagingBytes, vk::BufferUsageFlagBits::eTransferDst,
                            MemoryKind::readback);
    submit(*this, slot, [&](const vk::raii::CommandBuffer& cmd) {
      cmd.copyBuffer(src.handle(), slot.readback->handle(),
                     vk::BufferCopy(off, 0, std::min(chunk, bytes - off)));
      const vk::MemoryBarrier to_host(vk::AccessFlagBits::eTransferWrite,
                                      vk::AccessFlagBits::eHostRead);
      cmd.pipelineBarrier(vk::PipelineStageFlagBits::eTransfer, vk::PipelineStageFlagBits::eHost,
                          {}, to_host, {}, {});
    });
  };
  enqueue(0, staging_->slots[0]);
  for (std::size_t off = 0, i = 0; off < bytes; off += chunk, i ^= 1) {
    // The next chunk goes into the other slot, which the host finished draining.
    if (off + chunk < bytes) enqueue(off + chunk, staging_->slots[i ^ 1]);
    Staging::Slot& slot = staging_->slots[i];
    settle(*this, slot);
    copy_parallel(out + off, slot.readback->mapped(), std::min(chunk, bytes - off));
  }
}

}  // namespace xr::vulkan
