#include "vk_overheads.hpp"

#include <chrono>
#include <string>
#include <utility>

#include "vk_commands.hpp"
#include "vk_internal.hpp"
#include "xreduce/error.hpp"
#include "xreduce/harness.hpp"
#include "xreduce/units.hpp"

namespace xr::vulkan {
namespace {

// As the CUDA table (cuda_backend/adapter/timing.cu): 256 calls per batch, 25 samples per row, 100
// round trips.
constexpr int kCalls = 256;
constexpr int kSamples = 25;
constexpr int kRoundTrips = 100;

using Clock = HostClock;

// What every row is measured with: the device, the empty shader's pipeline, a fence, and command
// buffers of one empty dispatch (reusable while pending) and of kCalls of them.
class EmptyCalls {
 public:
  explicit EmptyCalls(Device& device)
      : device_(device),
        pipeline_(
            device.pipelines().get({.module = "empty", .workgroup = 32, .descriptor_sets = true})),
        fence_(XR_VK_CHECK(device.handle().createFence(vk::FenceCreateInfo()))),
        one_(record(1, true)),
        many_(record(kCalls, false)) {}

  // GPU time per call of `calls` empty dispatches between the timestamps of one command
  // buffer, a compute barrier between them, as a variant's passes are recorded.
  std::vector<double> gpu_us_per_call(int calls) {
    TimedCommands timed(device_);
    const auto& cmd = timed.begin();
    for (int i = 0; i < calls; ++i) {
      if (i > 0) record_pass_barrier(cmd);
      record_dispatch(cmd, device_, pipeline_, Bound{}, PushConstants{}, Grid{1, 1});
    }
    timed.end_timing();
    timed.end();
    std::vector<double> us;
    for (int i = 0; i <= kSamples; ++i) {
      const double ms = timed.run().device_ms;
      if (i > 0) us.push_back(1e3 * ms / calls);  // run 0 warms up
    }
    return us;
  }

  vk::CommandBuffer one() const { return *one_; }
  vk::CommandBuffer many() const { return *many_; }
  void submit(vk::CommandBuffer cmd, bool fenced) {
    XR_VK_CHECK(device_.queue().submit(vk::SubmitInfo({}, {}, cmd), fenced ? *fence_ : nullptr));
  }
  // Submits `cmd` with the fence reset first, and waits the `how` way.
  void submit_and_wait(vk::CommandBuffer cmd, Device::Wait how) {
    reset();
    submit(cmd, true);
    wait(how);
  }
  void reset() { XR_VK_CHECK(device_.handle().resetFences(*fence_)); }
  void wait(Device::Wait how) { device_.wait(fence_, how); }
  Device& device() { return device_; }

 private:
  // A command buffer of `dispatches` empty dispatches, each after a compute barrier (a dependent
  // call's order, as CUDA's stream order), reusable while pending when `simultaneous`.
  vk::raii::CommandBuffer record(int dispatches, bool simultaneous) {
    vk::raii::CommandBuffer cmd = device_.allocate_command_buffer();
    cmd.begin(vk::CommandBufferBeginInfo(simultaneous
                                             ? vk::CommandBufferUsageFlagBits::eSimultaneousUse
                                             : vk::CommandBufferUsageFlags{}));
    for (int i = 0; i < dispatches; ++i) {
      if (i > 0) record_pass_barrier(cmd);
      record_dispatch(cmd, device_, pipeline_, Bound{}, PushConstants{}, Grid{1, 1});
    }
    cmd.end();
    return cmd;
  }

  Device& device_;
  vk::Pipeline pipeline_;
  vk::raii::Fence fence_;
  vk::raii::CommandBuffer one_, many_;
};

// GPU time per empty dispatch back to back, and the interval of one call: the floor of every
// cold Vulkan number.
void gpu_rows(EmptyCalls& calls, std::vector<Overhead>& out) {
  out.push_back(make_overhead(OverheadKind::dispatch_gpu, "empty dispatch, GPU time per call",
                              "one command buffer", calls.gpu_us_per_call(kCalls),
                              "256 dispatches with a compute barrier between them, timestamps "
                              "around them"));
  out.push_back(make_overhead(OverheadKind::cold_interval,
                              "empty dispatch, cold: one call's interval", "one command buffer",
                              calls.gpu_us_per_call(1),
                              "the timestamps around one dispatch, as a variant's call"));
}

// Host cost of one vkQueueSubmit, and per call with one submit per call against one command
// buffer holding every call.
void submit_rows(EmptyCalls& calls, std::vector<Overhead>& out) {
  const Device::Wait spin = Device::Wait::spin;
  std::vector<double> submit_us, per_submit_us, per_dispatch_us;
  for (int i = 0; i < kSamples; ++i) {
    calls.reset();
    auto t0 = Clock::now();
    calls.submit(calls.one(), true);
    submit_us.push_back(us_since(t0));
    calls.wait(spin);

    calls.reset();
    t0 = Clock::now();
    for (int c = 0; c + 1 < kCalls; ++c) calls.submit(calls.one(), false);
    calls.submit(calls.one(), true);
    calls.wait(spin);
    per_submit_us.push_back(us_since(t0) / kCalls);

    calls.reset();
    t0 = Clock::now();
    calls.submit(calls.many(), true);
    calls.wait(spin);
    per_dispatch_us.push_back(us_since(t0) / kCalls);
  }
  out.push_back(make_overhead(OverheadKind::submit_host, "submit, host time per call",
                              "vkQueueSubmit", submit_us, "one command buffer of one dispatch"));
  out.push_back(
      make_overhead(OverheadKind::batch_host, "empty call, host time per call in a batch of 256",
                    "one submit per call", per_submit_us, "256 submits, then one fence (polled)"));
  out.push_back(make_overhead(
      OverheadKind::batch_host, "empty call, host time per call in a batch of 256",
      "one command buffer", per_dispatch_us, "one submit of 256 dispatches, one fence (polled)"));
}

// Submit to completion seen on the host, waiting for a fence each way.
void fence_round_trips(EmptyCalls& calls, std::vector<Overhead>& out) {
  std::vector<double> block, spin;
  for (int i = 0; i < kRoundTrips; ++i)
    for (auto [how, samples] :
         {std::pair{Device::Wait::block, &block}, std::pair{Device::Wait::spin, &spin}}) {
      calls.reset();
      const auto t0 = Clock::now();
      calls.submit(calls.one(), true);
      calls.wait(how);
      samples->push_back(us_since(t0));
    }
  out.push_back(make_overhead(OverheadKind::round_trip, "round trip, host time",
                              "fence, vkWaitForFences", block, "an empty dispatch"));
  out.push_back(make_overhead(OverheadKind::round_trip, "round trip, host time",
                              "fence, polled vkGetFenceStatus", spin, "an empty dispatch"));
}

// One submission signalling `value` on a timeline semaphore, waited for blocking or polled.
double timeline_round_trip_us(EmptyCalls& calls, const vk::raii::Semaphore& timeline,
                              std::uint64_t value, bool polled) {
  const vk::Semaphore handle = *timeline;
  vk::TimelineSemaphoreSubmitInfo values({}, value);
  const vk::CommandBuffer cmd = calls.one();
  vk::SubmitInfo info({}, {}, cmd, handle);
  info.pNext = &values;
  const auto t0 = Clock::now();
  XR_VK_CHECK(calls.device().queue().submit(info, nullptr));
  if (polled) {
    const auto deadline = Clock::now() + calls.device().timeout();
    while (XR_VK_CHECK(timeline.getCounterValue()) < value)
      if (Clock::now() > deadline) calls.device().timed_out("a timeline semaphore signal");
  } else {
    const auto deadline_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(calls.device().timeout()).count();
    if (XR_VK_CHECK(calls.device().handle().waitSemaphores(vk::SemaphoreWaitInfo({}, handle, value),
                                                           deadline_ns)) == vk::Result::eTimeout)
      calls.device().timed_out("a timeline semaphore signal");
  }
  return us_since(t0);
}

// Round trips through a timeline semaphore, where the device has them.
void timeline_round_trips(EmptyCalls& calls, std::vector<Overhead>& out) {
  if (!calls.device().facts().timeline_semaphore) return;
  vk::SemaphoreTypeCreateInfo type(vk::SemaphoreType::eTimeline, 0);
  vk::raii::Semaphore timeline =
      XR_VK_CHECK(calls.device().handle().createSemaphore(vk::SemaphoreCreateInfo({}, &type)));
  std::uint64_t value = 0;
  std::vector<double> block, spin;
  for (int i = 0; i < kRoundTrips; ++i) {
    block.push_back(timeline_round_trip_us(calls, timeline, ++value, false));
    spin.push_back(timeline_round_trip_us(calls, timeline, ++value, true));
  }
  out.push_back(make_overhead(OverheadKind::round_trip, "round trip, host time",
                              "timeline semaphore, vkWaitSemaphores", block, "an empty dispatch"));
  out.push_back(make_overhead(OverheadKind::round_trip, "round trip, host time",
                              "timeline semaphore, polled vkGetSemaphoreCounterValue", spin,
                              "an empty dispatch"));
}

}  // namespace

std::vector<Overhead> measure_vulkan_overheads(Device& device) {
  device.raise_validation();
  EmptyCalls calls(device);
  std::vector<Overhead> out;
  gpu_rows(calls, out);
  for (int i = 0; i < 3; ++i) calls.submit_and_wait(calls.one(), Device::Wait::block);  // warm-up
  submit_rows(calls, out);
  fence_round_trips(calls, out);
  timeline_round_trips(calls, out);
  XR_VK_CHECK(device.queue().waitIdle());
  device.raise_validation();
  return out;
}

}  // namespace xr::vulkan
