// The measurement seams of the compare tool on Vulkan: the cache flush, the read probe and the
// copy probe (shaders read_bandwidth.comp and copy_bandwidth.comp).
#pragma once

#include <memory>
#include <optional>

#include "vk_buffer.hpp"
#include "vk_device.hpp"

namespace xr::vulkan {

// The measurement seams of the compare tool, with the scratch they keep between calls.
class Probes {
 public:
  explicit Probes(std::shared_ptr<Device> device) : device_(std::move(device)) {}
  // Backend::flush_cache: fills a scratch buffer of twice the largest L2 expected (64 MiB;
  // the GPUs of this project have 50 MiB), so earlier data is evicted; nothing on a CPU device.
  void flush_cache();
  // Backend::measure_read_bandwidth_gbps: the read_bandwidth shader over up to 1 GiB (less when
  // the device holds less), median of several timed runs; on a CPU device the best over 32 MiB
  // down to 512 KiB (its caches are never flushed, see probe_sizes).
  double read_bandwidth_gbps();
  // Backend::measure_copy_bandwidth_gbps: the copy_bandwidth shader over up to 1 GiB into another
  // buffer (not vkCmdCopyBuffer, which may use a DMA engine), bytes read + written per second,
  // median of several timed runs.
  double copy_bandwidth_gbps();

 private:
  std::shared_ptr<Device> device_;
  std::optional<Buffer> flush_buffer_;
  std::uint32_t flush_value_ = 0;
};

}  // namespace xr::vulkan
