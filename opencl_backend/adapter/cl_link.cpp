#include "cl_link.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "cl_internal.hpp"
#include "cl_timed.hpp"
#include "xreduce/error.hpp"
#include "xreduce/harness.hpp"
#include "xreduce/units.hpp"

namespace xr::opencl {
namespace {

// As the CUDA and Vulkan anchors: one warm-up, then the median of 7.
constexpr int kLinkRuns = 7;

// A CL_MEM_ALLOC_HOST_PTR buffer mapped for the host: the page-locked memory of OpenCL (NVIDIA's
// driver pins it; the copies from its mapping are the fast path). Unmapped before its release.
class PinnedHost {
 public:
  PinnedHost(const Device& device, std::uint64_t bytes)
      : queue_(device.queue()),
        mem_(make_buffer(device, bytes, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR)) {
    cl_event raw = nullptr;
    data_ =
        XR_CL_CREATE(clEnqueueMapBuffer(queue_, mem_.get(), CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                        bytes, 0, nullptr, &raw, status));
    device.flush_and_wait(raw, "the mapping of page-locked host memory");
  }
  PinnedHost(const PinnedHost&) = delete;
  PinnedHost& operator=(const PinnedHost&) = delete;
  // Not waited for: the buffer is freed once its unmap has run.
  ~PinnedHost() {
    clEnqueueUnmapMemObject(queue_, mem_.get(), data_, 0, nullptr, nullptr);
    clFlush(queue_);
  }
  void* data() const { return data_; }

 private:
  cl_command_queue queue_;
  MemOwner mem_;
  void* data_ = nullptr;
};

// The largest copy the device holds twice over, and what bounds it ("" when `bytes` fits).
struct Clamp {
  std::uint64_t bytes = 0;
  std::string bound;
};

Clamp clamp_link_bytes(const DeviceFacts& f, std::uint64_t bytes) {
  Clamp c{bytes, ""};
  const auto cap = [&](std::uint64_t limit, const char* what) {
    if (limit < c.bytes) c = {limit, what};
  };
  cap(f.max_allocation, "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
  // The anchor runs beside a compare's arrays; a CPU device's pinned buffer is its memory too.
  cap(f.global_memory / 4, "a quarter of CL_DEVICE_GLOBAL_MEM_SIZE");
  c.bytes &= ~std::uint64_t{15};
  return c;
}

// Median ms of one copy between `host` and `buffer` (upload: into the buffer), by the copy's
// profiling event, over kLinkRuns runs after a warm-up.
double median_copy_ms(const Device& device, bool upload, cl_mem buffer, void* host,
                      std::uint64_t bytes) {
  std::vector<double> ms;
  for (int run = 0; run <= kLinkRuns; ++run) {
    cl_event raw = nullptr;
    if (upload)
      XR_CL_CHECK(
          clEnqueueWriteBuffer(device.queue(), buffer, CL_FALSE, 0, bytes, host, 0, nullptr, &raw));
    else
      XR_CL_CHECK(
          clEnqueueReadBuffer(device.queue(), buffer, CL_FALSE, 0, bytes, host, 0, nullptr, &raw));
    const EventOwner copy(raw);
    XR_CL_CHECK(clFlush(device.queue()));
    device.wait(copy.get(), "a host-link copy");
    // Run 0 warms up (first touch of the mappings, clocks).
    if (run > 0) ms.push_back(static_cast<double>(event_end(raw) - event_start(raw)) / 1e6);
  }
  return summarize(ms).median;
}

}  // namespace

LinkRate measure_opencl_link(const Device& device, std::uint64_t bytes) {
  const Clamp clamp = clamp_link_bytes(device.facts(), bytes);
  if (clamp.bytes == 0)
    throw Error(ErrorCategory::usage,
                "measure_link: " + std::to_string(bytes) + " bytes is less than one 16-byte copy");
  PinnedHost host(device, clamp.bytes);
  const MemOwner local = make_buffer(device, clamp.bytes);
  std::memset(host.data(), 1, clamp.bytes);  // its pages resident before the warm-up
  const double up = median_copy_ms(device, true, local.get(), host.data(), clamp.bytes);
  const double down = median_copy_ms(device, false, local.get(), host.data(), clamp.bytes);

  LinkRate link;
  link.bytes = clamp.bytes;
  link.upload_gbps = gbps(static_cast<double>(clamp.bytes), up);
  link.readback_gbps = gbps(static_cast<double>(clamp.bytes), down);
  link.samples = kLinkRuns;
  link.how =
      "clEnqueueWriteBuffer/clEnqueueReadBuffer from/to a mapped CL_MEM_ALLOC_HOST_PTR buffer "
      "(page-locked), profiling events";
  if (!clamp.bound.empty())
    link.how += ", clamped to " + format_mib(clamp.bytes) + " (" + clamp.bound + ")";
  return link;
}

}  // namespace xr::opencl
