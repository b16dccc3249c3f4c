#include "vk_link.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "vk_buffer.hpp"
#include "vk_commands.hpp"
#include "xreduce/error.hpp"
#include "xreduce/harness.hpp"
#include "xreduce/units.hpp"

namespace xr::vulkan {
namespace {

// As the read and copy probes (vk_probes.cpp): one warm-up, then the median of 7.
constexpr int kLinkRuns = 7;

// Bytes of one copy region: lavapipe (Mesa 22.3) faults copying 2 GiB in one region, so a larger
// copy is recorded as several regions of one vkCmdCopyBuffer.
constexpr vk::DeviceSize kMaxRegionBytes = vk::DeviceSize{1} << 30;

constexpr vk::BufferUsageFlags kCopyUsage =
    vk::BufferUsageFlagBits::eTransferSrc | vk::BufferUsageFlagBits::eTransferDst;

// The largest copy one buffer of each kind holds, and what bounds it ("" when `bytes` fits).
struct Clamp {
  std::uint64_t bytes = 0;
  std::string bound;
};

Clamp clamp_link_bytes(const DeviceFacts& f, const VulkanKnobs& knobs, std::uint64_t bytes) {
  Clamp c{bytes, ""};
  const auto cap = [&](std::uint64_t limit, const char* what) {
    if (limit && limit < c.bytes) c = {limit, what};
  };
  // The host-visible buffers are one allocation each; the device-local one may be sparse.
  cap(f.max_allocation, "maxMemoryAllocationSize");
  cap(largest_buffer(f, knobs).bytes, "the largest device-local buffer");
  c.bytes &= ~std::uint64_t{15};
  return c;
}

// Median ms of one copy from `src` to `dst` over kLinkRuns runs after a warm-up. `to_host`: the
// copy's writes are made visible to the host after the interval, as a read-back's must be.
Timing median_copy(Device& device, const Buffer& src, const Buffer& dst, std::uint64_t bytes,
                   bool to_host) {
  TimedCommands commands(device);
  const auto& cmd = commands.begin();
  std::vector<vk::BufferCopy> regions;
  for (vk::DeviceSize off = 0; off < bytes; off += kMaxRegionBytes)
    regions.emplace_back(off, off, std::min(kMaxRegionBytes, bytes - off));
  cmd.copyBuffer(src.handle(), dst.handle(), regions);
  commands.end_timing();
  if (to_host) {
    const vk::MemoryBarrier barrier(vk::AccessFlagBits::eTransferWrite,
                                    vk::AccessFlagBits::eHostRead);
    cmd.pipelineBarrier(vk::PipelineStageFlagBits::eTransfer, vk::PipelineStageFlagBits::eHost, {},
                        barrier, {}, {});
  }
  commands.end();
  std::vector<double> ms;
  bool device_timer = true;
  for (int run = 0; run <= kLinkRuns; ++run) {
    const Timing t = commands.run();
    device_timer = t.device_timer;
    if (run > 0) ms.push_back(t.device_ms);  // run 0 warms up (first touch, clocks)
  }
  device.raise_validation();
  return Timing{summarize(ms).median, 0, device_timer};
}

// The smallest link copy tried when a larger one cannot be allocated.
constexpr std::uint64_t kSmallestLinkBytes = std::uint64_t{64} << 20;

// The three buffers of one link measurement.
struct LinkBuffers {
  Buffer upload, readback, local;
  LinkBuffers(Device& device, std::uint64_t bytes)
      : upload(device, bytes, kCopyUsage, MemoryKind::upload),
        readback(device, bytes, kCopyUsage, MemoryKind::readback),
        local(device, bytes, kCopyUsage, MemoryKind::device_local) {}
};

// The link's buffers at `clamp`'s size, or, where the device cannot allocate them (the limits are
// upper bounds: two host-visible copies of a large size may exceed the host memory the driver
// can pin), at half of it, down to kSmallestLinkBytes; `clamp` says what was allocated and why.
LinkBuffers allocate_link(Device& device, Clamp& clamp) {
  for (;;) {
    try {
      return LinkBuffers(device, clamp.bytes);
    } catch (const Error& e) {
      if (e.category() != ErrorCategory::out_of_memory || clamp.bytes / 2 < kSmallestLinkBytes)
        throw;
      const std::uint64_t refused = clamp.bytes;
      clamp.bytes = (clamp.bytes / 2) & ~std::uint64_t{15};
      clamp.bound = "the device could not allocate " + format_mib(refused);
    }
  }
}

}  // namespace

LinkRate measure_vulkan_link(Device& device, std::uint64_t bytes) {
  device.raise_validation();
  Clamp clamp = clamp_link_bytes(device.facts(), device.knobs(), bytes);
  if (clamp.bytes == 0)
    throw Error(ErrorCategory::usage,
                "measure_link: " + std::to_string(bytes) + " bytes is less than one 16-byte copy");
  LinkBuffers b = allocate_link(device, clamp);
  std::memset(b.upload.mapped(), 1, clamp.bytes);  // its pages resident before the warm-up
  const Timing up = median_copy(device, b.upload, b.local, clamp.bytes, false);
  const Timing down = median_copy(device, b.local, b.readback, clamp.bytes, true);

  LinkRate link;
  link.bytes = clamp.bytes;
  link.upload_gbps = gbps(static_cast<double>(clamp.bytes), up.device_ms);
  link.readback_gbps = gbps(static_cast<double>(clamp.bytes), down.device_ms);
  link.samples = kLinkRuns;
  link.how = std::string("vkCmdCopyBuffer between host-visible and device-local buffers, ") +
             (up.device_timer ? "timestamps" : "host time (no timestamps on this queue)");
  if (!clamp.bound.empty())
    link.how += ", clamped to " + format_mib(clamp.bytes) + " (" + clamp.bound + ")";
  return link;
}

}  // namespace xr::vulkan
