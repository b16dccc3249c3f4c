#include "cl_probes.hpp"

#include <algorithm>
#include <vector>

#include "cl_clock.hpp"
#include "cl_internal.hpp"
#include "cl_link.hpp"
#include "cl_overheads.hpp"
#include "cl_probe_kernel.hpp"
#include "cl_timed.hpp"
#include "xreduce/harness.hpp"

namespace xr::opencl {
namespace {

// Twice the largest L2 expected (50 MiB on the GPUs of this project), as Vulkan's flush.
constexpr std::uint64_t kFlushBytes = std::uint64_t{128} << 20;
// As Vulkan's probes (vk_probes.cpp): up to 1 GiB, one warm-up, then the median of 7 on a GPU
// and the fastest of 21 on a CPU device (its speed jumps as the host schedules its threads).
constexpr std::uint64_t kProbeBytes = std::uint64_t{1} << 30;
constexpr int kProbeRuns = 7;
constexpr int kCpuProbeRuns = 21;
// As Vulkan's probes: 256 work-items of 4 vectors each, at most 1024 work-groups.
constexpr std::uint32_t kProbeWorkgroup = 256, kProbeUnroll = 4, kProbeGroups = 1024;

bool cpu_device(const DeviceFacts& f) {
  return (f.type & CL_DEVICE_TYPE_CPU) != 0;
}

// Fills `mem` with `value` and waits.
void fill_probe(const Device& device, cl_mem mem, std::uint64_t bytes, cl_uint value) {
  XR_CL_CHECK(clEnqueueFillBuffer(device.queue(), mem, &value, sizeof value, 0, bytes, 0, nullptr,
                                  nullptr));
  device.finish("a probe buffer's fill");
}

// Device ms of the probe kernel `name` over `vectors` 16-byte vectors of src (into dst): the
// median of kProbeRuns after a warm-up on a GPU, the fastest of kCpuProbeRuns on a CPU device.
double probe_ms(const Device& device, const char* name, cl_mem src, cl_mem dst,
                std::uint64_t vectors) {
  const std::uint32_t groups =
      std::min(ceil_div32(vectors, std::uint64_t{kProbeWorkgroup} * kProbeUnroll), kProbeGroups);
  const Pass pass = probe_pass(name, kProbeWorkgroup, groups, vectors, kProbeUnroll);
  // Built before the first interval: a build inside it can hold the blocking-kernel gate past its
  // time limit (NVIDIA's program binaries are PTX, compiled again on load).
  programs_of(device).kernel(pass.key);
  const int runs = cpu_device(device.facts()) ? kCpuProbeRuns : kProbeRuns;
  std::vector<double> ms;
  for (int run = 0; run <= runs; ++run) {
    const Timing t = run_timed(device, 1, [&](auto wait, cl_event* first, cl_event* last) {
      enqueue_probe(device, pass, src, dst, {wait, first, last});
    });
    if (run > 0) ms.push_back(t.device_ms);  // run 0 warms up (clocks, first touch)
  }
  std::sort(ms.begin(), ms.end());
  return cpu_device(device.facts()) ? ms.front() : ms[ms.size() / 2];
}

// Bytes of one probe buffer: 1 GiB, or less where one allocation or a `share` of the device's
// memory is smaller; a multiple of 16.
std::uint64_t probe_bytes(const DeviceFacts& f, std::uint64_t share) {
  return std::min({kProbeBytes, f.max_allocation, f.global_memory / share}) & ~std::uint64_t{15};
}

// The sizes a probe runs at, as Vulkan's (vk_probes.cpp, probe_sizes): the largest on a GPU,
// whose peak is the DRAM stream; on a CPU device, whose caches are not flushed, the best over
// 32 MiB down to 512 KiB, or "% of peak" would pass 100 %.
std::vector<std::uint64_t> probe_sizes(const DeviceFacts& f, std::uint64_t largest) {
  if (!cpu_device(f)) return {largest};
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t s :
       {std::uint64_t{32} << 20, std::uint64_t{4} << 20, std::uint64_t{512} << 10})
    if (s <= largest) sizes.push_back(s);
  if (sizes.empty()) sizes.push_back(largest);
  return sizes;
}

// The best GB/s of `bytes_per_byte` x bytes over each probe size of `share` of the device.
template <class Probe>
std::optional<double> best_gbps(const Device& device, std::uint64_t share, double bytes_per_byte,
                                Probe&& probe) {
  double best = 0;
  for (std::uint64_t bytes : probe_sizes(device.facts(), probe_bytes(device.facts(), share)))
    best = std::max(best, gbps(bytes_per_byte * static_cast<double>(bytes), probe(bytes)));
  if (!(best > 0)) return std::nullopt;
  return best;
}

}  // namespace

Probes::Probes(std::shared_ptr<Device> device) : device_(std::move(device)) {}
Probes::~Probes() = default;

void Probes::flush_cache() {
  const DeviceFacts& f = device_->facts();
  if (!(f.type & CL_DEVICE_TYPE_GPU)) return;  // a CPU device's caches are the host's
  if (!flush_buffer_) {
    std::uint64_t bytes = std::min({kFlushBytes, f.global_memory / 8, f.max_allocation});
    flush_buffer_ = make_buffer(*device_, bytes & ~std::uint64_t{15});
  }
  const cl_uint value = ++flush_value_;
  std::size_t bytes = 0;
  XR_CL_CHECK(clGetMemObjectInfo(flush_buffer_.get(), CL_MEM_SIZE, sizeof bytes, &bytes, nullptr));
  XR_CL_CHECK(clEnqueueFillBuffer(device_->queue(), flush_buffer_.get(), &value, sizeof value, 0,
                                  bytes, 0, nullptr, nullptr));
  device_->finish("the cache flush");
}

std::optional<double> Probes::read_bandwidth_gbps() {
  const Device& device = *device_;
  return best_gbps(device, 4, 1.0, [&](std::uint64_t bytes) {
    const MemOwner data = make_buffer(device, bytes);
    const MemOwner sink = make_buffer(device, 16);
    fill_probe(device, data.get(), bytes, 0);
    fill_probe(device, sink.get(), 16, 0);
    return probe_ms(device, "probe_read", data.get(), sink.get(), bytes / 16);
  });
}

std::optional<double> Probes::copy_bandwidth_gbps() {
  const Device& device = *device_;
  // Bytes read plus bytes written, as a scan's GB/s counts them.
  return best_gbps(device, 8, 2.0, [&](std::uint64_t bytes) {
    const MemOwner src = make_buffer(device, bytes);
    const MemOwner dst = make_buffer(device, bytes);
    fill_probe(device, src.get(), bytes, 1);
    fill_probe(device, dst.get(), bytes, 0);  // first touch of its pages outside the timing
    return probe_ms(device, "probe_copy", src.get(), dst.get(), bytes / 16);
  });
}

std::vector<Overhead> Probes::overheads() {
  return measure_opencl_overheads(*device_);
}

std::optional<LinkRate> Probes::link(std::uint64_t bytes) {
  return measure_opencl_link(*device_, bytes);
}

ClockProbe* Probes::clock() {
  if (!clock_) clock_ = make_clock(device_);
  return measured(*clock_) ? clock_.get() : nullptr;
}

std::string Probes::clock_unmeasured_reason() {
  if (!clock_) clock_ = make_clock(device_);
  return unmeasured_reason(*clock_);
}

}  // namespace xr::opencl
