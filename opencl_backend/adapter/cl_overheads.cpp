#include "cl_overheads.hpp"

#include <string>

#include "cl_probe_kernel.hpp"
#include "xreduce/harness.hpp"
#include "xreduce/units.hpp"

namespace xr::opencl {
namespace {

// As the CUDA and Vulkan tables: 256 calls per batch, 25 samples per row, 100 round trips.
constexpr int kCalls = 256;
constexpr int kSamples = 25;
constexpr int kRoundTrips = 100;
constexpr std::uint32_t kEmptyWorkgroup = 32;

// The empty kernel, its arguments set once (by the warm-up's enqueue_passes) and enqueued bare,
// so the host rows time clEnqueueNDRangeKernel alone.
class EmptyCalls {
 public:
  explicit EmptyCalls(const Device& device)
      : device_(device), pass_(probe_pass("probe_empty", kEmptyWorkgroup, 1)) {
    for (int i = 0; i < 3; ++i) enqueue_probe(device_, pass_, nullptr, nullptr);  // warm-up
    device_.finish("the empty kernel's warm-up");
    kernel_ = programs_of(device_).kernel(pass_.key);
  }

  void enqueue(cl_event* event = nullptr) {
    const std::size_t global = kEmptyWorkgroup, local = kEmptyWorkgroup;
    XR_CL_CHECK(clEnqueueNDRangeKernel(device_.queue(), kernel_, 1, nullptr, &global, &local, 0,
                                       nullptr, event));
  }

  // GPU time per call of `calls` empty kernels behind run_timed's gate: the first one's START
  // to the last one's END.
  std::vector<double> gpu_us_per_call(int calls) {
    std::vector<double> us;
    for (int i = 0; i <= kSamples; ++i) {
      const Timing t = run_timed(device_, calls, [&](auto wait, cl_event* first, cl_event* last) {
        enqueue_probe(device_, pass_, nullptr, nullptr, {wait, first, last});
      });
      if (i > 0) us.push_back(1e3 * t.device_ms);  // sample 0 warms up
    }
    return us;
  }

  const Device& device() const { return device_; }

 private:
  const Device& device_;
  Pass pass_;
  cl_kernel kernel_ = nullptr;
};

void gpu_rows(EmptyCalls& calls, std::vector<Overhead>& out) {
  const std::string held = calls.device().held_by();
  out.push_back(make_overhead(
      OverheadKind::dispatch_gpu, "empty kernel, GPU time per call", "in-order queue",
      calls.gpu_us_per_call(kCalls),
      "256 kernels back to back " + held + ", the first's profiling START to the last's END"));
  out.push_back(
      make_overhead(OverheadKind::cold_interval, "empty kernel, cold: one call's interval",
                    "in-order queue", calls.gpu_us_per_call(1),
                    "one kernel's profiling START to END " + held + ", as a variant's call"));
}

// Host cost of one clEnqueueNDRangeKernel, and per call of a batch ended by clFinish.
void submit_rows(EmptyCalls& calls, std::vector<Overhead>& out) {
  const cl_command_queue queue = calls.device().queue();
  std::vector<double> enqueue_us, batch_us;
  for (int i = 0; i < kRoundTrips; ++i) {
    const auto t0 = HostClock::now();
    calls.enqueue();
    enqueue_us.push_back(us_since(t0));
    XR_CL_CHECK(clFinish(queue));
  }
  for (int i = 0; i < kSamples; ++i) {
    const auto t0 = HostClock::now();
    for (int c = 0; c < kCalls; ++c) calls.enqueue();
    XR_CL_CHECK(clFinish(queue));
    batch_us.push_back(us_since(t0) / kCalls);
  }
  out.push_back(make_overhead(OverheadKind::submit_host, "submit, host time per call",
                              "clEnqueueNDRangeKernel", enqueue_us,
                              "the call alone, no event asked, on an idle queue (no flush)"));
  out.push_back(make_overhead(OverheadKind::batch_host,
                              "empty call, host time per call in a batch of 256",
                              "clEnqueueNDRangeKernel x 256 + clFinish", batch_us,
                              "256 enqueues without events, then one clFinish"));
}

// Enqueue to completion seen on the host: clFinish, and the fastest path, spinning on the
// event's status (Device::wait), bare and with the 4-byte read-back a reduce's value needs.
void round_trip_rows(EmptyCalls& calls, std::vector<Overhead>& out) {
  const cl_command_queue queue = calls.device().queue();
  const MemOwner word = make_buffer(calls.device(), sizeof(cl_uint));
  cl_uint value = 0;
  std::vector<double> finish, polled, read;
  for (int i = 0; i < kRoundTrips; ++i) {
    auto t0 = HostClock::now();
    calls.enqueue();
    XR_CL_CHECK(clFinish(queue));
    finish.push_back(us_since(t0));

    t0 = HostClock::now();
    cl_event raw = nullptr;
    calls.enqueue(&raw);
    calls.device().flush_and_wait(raw, "an empty kernel");
    polled.push_back(us_since(t0));

    t0 = HostClock::now();
    calls.enqueue();
    cl_event read_raw = nullptr;
    XR_CL_CHECK(clEnqueueReadBuffer(queue, word.get(), CL_FALSE, 0, sizeof value, &value, 0,
                                    nullptr, &read_raw));
    calls.device().flush_and_wait(read_raw, "a 4-byte read-back");
    read.push_back(us_since(t0));
  }
  out.push_back(make_overhead(OverheadKind::round_trip, "round trip, host time",
                              "clEnqueueNDRangeKernel + clFinish", finish, "an empty kernel"));
  out.push_back(make_overhead(OverheadKind::round_trip, "round trip, host time",
                              "clEnqueueNDRangeKernel + clFlush + polled event status", polled,
                              "an empty kernel, CL_EVENT_COMMAND_EXECUTION_STATUS spun on"));
  out.push_back(
      make_overhead(OverheadKind::round_trip, "round trip, host time",
                    "clEnqueueNDRangeKernel + 4-byte clEnqueueReadBuffer + polled event status",
                    read, "what a reduce's value costs to fetch"));
}

}  // namespace

std::vector<Overhead> measure_opencl_overheads(const Device& device) {
  EmptyCalls calls(device);
  std::vector<Overhead> out;
  gpu_rows(calls, out);
  submit_rows(calls, out);
  round_trip_rows(calls, out);
  device.finish("the overheads' last call");
  return out;
}

}  // namespace xr::opencl
