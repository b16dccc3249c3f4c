#include "vk_probes.hpp"

#include <algorithm>
#include <vector>

#include "vk_array.hpp"
#include "vk_commands.hpp"
#include "vk_internal.hpp"
#include "xreduce/error.hpp"

namespace xr::vulkan {

// --- probes ---------------------------------------------------------------------------------

namespace {
// Flush scratch: twice the largest L2 expected on the GPUs of this project (50 MiB).
constexpr vk::DeviceSize kFlushBytes = vk::DeviceSize{128} << 20;
// Bytes the read-bandwidth probe streams, the same as the CUDA backend's probe.
constexpr vk::DeviceSize kProbeBytes = vk::DeviceSize{1} << 30;
constexpr int kProbeRuns = 7;
// A CPU device keeps its fastest run of more: the host's scheduler decides how fast it runs.
constexpr int kCpuProbeRuns = 21;
}  // namespace

namespace {

// Time in ms of the work `record` puts in a command buffer over kProbeRuns runs after a warm-up:
// timestamps around it where the device has them, else the host's submit-to-fence time. The
// median on a GPU; the fastest run on a CPU device, whose speed jumps between runs as the host
// schedules its threads (lavapipe on 2 cores varies by half from one process to the next;
// docs/results/H200/tuning-notes.md), so that the peak is one the device reached.
template <class Record>
double probe_median_ms(Device& device, Record&& record) {
  TimedCommands commands(device);
  record(commands.begin());
  commands.end_timing();
  commands.end();
  std::vector<double> ms;
  const int runs = device.facts().cpu() ? kCpuProbeRuns : kProbeRuns;
  for (int run = 0; run <= runs; ++run) {
    const double t = commands.run().device_ms;
    if (run > 0) ms.push_back(t);  // run 0 warms up (pipeline, clocks)
  }
  std::sort(ms.begin(), ms.end());
  device.raise_validation();
  return device.facts().cpu() ? ms.front() : ms[ms.size() / 2];
}

}  // namespace

void Probes::flush_cache() {
  Device& device = *device_;
  const DeviceFacts& f = device.facts();
  if (f.cpu()) return;
  device.raise_validation();
  if (!flush_buffer_) {
    vk::DeviceSize bytes = kFlushBytes;
    if (f.device_local_bytes) bytes = std::min<vk::DeviceSize>(bytes, f.device_local_bytes / 8);
    if (f.max_allocation) bytes = std::min<vk::DeviceSize>(bytes, f.max_allocation);
    flush_buffer_.emplace(device, bytes & ~vk::DeviceSize{15}, kStorageUsage,
                          MemoryKind::device_local);
  }
  const std::uint32_t value = ++flush_value_;
  device.run_once([&](const vk::raii::CommandBuffer& cmd) {
    cmd.fillBuffer(flush_buffer_->handle(), 0, VK_WHOLE_SIZE, value);
  });
  device.raise_validation();
}

namespace {

// Median ms of the probe shader `name` (read_bandwidth, copy_bandwidth) over `vectors` 16-byte
// elements of `first`, with `second` beside it (the read probe's sink, the copy's target).
double probe_shader_ms(Device& device, const char* name, const Buffer& first, const Buffer& second,
                       std::uint64_t vectors) {
  const DeviceFacts& f = device.facts();
  // By binding (probe_bytes keeps a probe's buffers within one), or by address where every
  // variant is (XR_VK_ADDRESSING=address), so a peak is measured as its variants run.
  const bool by_address = device.knobs().force_address;
  const std::array<BindingSets::Triple, 1> triples{
      BindingSets::Triple{first.handle(), second.handle(), second.handle()}};
  const BindingSets sets(device, triples);
  const Bound operands{{first.address(), second.address(), second.address()},
                       by_address ? nullptr : sets[0]};

  constexpr std::uint32_t kWorkgroup = 256, kUnroll = 4;
  const vk::Pipeline pipeline =
      device.pipelines().get({.module = std::string(name) + (by_address ? ".addr" : ""),
                              .workgroup = kWorkgroup,
                              .unroll = kUnroll,
                              .descriptor_sets = true});
  const std::uint32_t groups = std::min({ceil_div32(vectors, kWorkgroup * kUnroll), kGridGroups,
                                         f.limits.maxComputeWorkGroupCount[0]});
  return probe_median_ms(device, [&](const vk::raii::CommandBuffer& cmd) {
    record_dispatch(cmd, device, pipeline, operands, PushConstants{vectors, 0, 0, groups},
                    Grid{groups, 1});
  });
}

// Bytes of one probe buffer: 1 GiB, or less where one binding, one allocation or a `share` of
// the device's memory is smaller; a multiple of 16.
vk::DeviceSize probe_bytes(const DeviceFacts& f, vk::DeviceSize share) {
  vk::DeviceSize bytes = std::min<vk::DeviceSize>(kProbeBytes, f.limits.maxStorageBufferRange);
  if (f.max_allocation) bytes = std::min<vk::DeviceSize>(bytes, f.max_allocation);
  if (f.device_local_bytes) bytes = std::min<vk::DeviceSize>(bytes, f.device_local_bytes / share);
  return bytes & ~vk::DeviceSize{15};
}

}  // namespace

namespace {

// The sizes a probe runs at. A GPU's L2 is flushed before every timed run, so its peak is the
// DRAM stream over the largest buffer. A CPU device's caches are not flushed (the host's cannot
// be from here), so small arrays run from cache there: its peak is the best over sizes from one
// past a host's last-level cache down to one that fits a core's L2, or "% of peak" would pass
// 100 %. Larger buffers only stream the host's DRAM, which is slower, yet take most of each
// probe's time (the lavapipe runs are in docs/results/H200/tuning-notes.md).
std::vector<vk::DeviceSize> probe_sizes(const DeviceFacts& f, vk::DeviceSize largest) {
  if (!f.cpu()) return {largest};
  std::vector<vk::DeviceSize> sizes;
  for (vk::DeviceSize s :
       {vk::DeviceSize{32} << 20, vk::DeviceSize{4} << 20, vk::DeviceSize{512} << 10})
    if (s <= largest) sizes.push_back(s);
  if (sizes.empty()) sizes.push_back(largest);
  return sizes;
}

// The best GB/s of `bytes_per_byte` x bytes over each probe size of `share` of the device.
template <class Probe>
double best_gbps(Device& device, vk::DeviceSize share, double bytes_per_byte, Probe&& probe) {
  device.raise_validation();
  double best = 0;
  for (vk::DeviceSize bytes : probe_sizes(device.facts(), probe_bytes(device.facts(), share))) {
    const double median = probe(bytes);
    if (median > 0)
      best = std::max(best, bytes_per_byte * static_cast<double>(bytes) / (median * 1e6));
  }
  return best;
}

}  // namespace

double Probes::read_bandwidth_gbps() {
  Device& device = *device_;
  return best_gbps(device, 4, 1.0, [&](vk::DeviceSize bytes) {
    Buffer data(device, bytes, kStorageUsage, MemoryKind::device_local);
    Buffer sink(device, 16, kStorageUsage, MemoryKind::device_local);
    device.run_once([&](const vk::raii::CommandBuffer& cmd) {
      cmd.fillBuffer(data.handle(), 0, VK_WHOLE_SIZE, 0);
      cmd.fillBuffer(sink.handle(), 0, VK_WHOLE_SIZE, 0);
    });
    return probe_shader_ms(device, "read_bandwidth", data, sink, bytes / 16);
  });
}

double Probes::copy_bandwidth_gbps() {
  Device& device = *device_;
  // Bytes read plus bytes written, as a scan's GB/s counts them.
  return best_gbps(device, 8, 2.0, [&](vk::DeviceSize bytes) {
    Buffer src(device, bytes, kStorageUsage, MemoryKind::device_local);
    Buffer dst(device, bytes, kStorageUsage, MemoryKind::device_local);
    device.run_once([&](const vk::raii::CommandBuffer& cmd) {
      cmd.fillBuffer(src.handle(), 0, VK_WHOLE_SIZE, 1);
    });
    return probe_shader_ms(device, "copy_bandwidth", src, dst, bytes / 16);
  });
}

}  // namespace xr::vulkan
