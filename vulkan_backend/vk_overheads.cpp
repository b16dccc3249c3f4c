#include "vk_overheads.hpp"

#include <algorithm>
#include <chrono>
#include <string>

#include "vk_array.hpp"
#include "vk_check.hpp"
#include "vk_commands.hpp"
#include "xreduce/error.hpp"
#include "xreduce/harness.hpp"
#include "xreduce/units.hpp"

namespace xr::vulkan {
namespace {

// As the CUDA table (cuda_backend/timing.cu): 256 calls per batch, 25 samples per row, 100 round
// trips.
constexpr int kCalls = 256;
constexpr int kSamples = 25;
constexpr int kRoundTrips = 100;

using Clock = HostClock;

// A command buffer of `dispatches` empty dispatches, each after a compute barrier (a dependent
// call's order, as CUDA's stream order), reusable while pending when `simultaneous`.
vk::raii::CommandBuffer record_empty(Device& device, int dispatches, bool simultaneous,
                                     vk::Pipeline pipeline) {
  vk::raii::CommandBuffer cmd = device.allocate_command_buffer();
  cmd.begin(vk::CommandBufferBeginInfo(simultaneous
                                           ? vk::CommandBufferUsageFlagBits::eSimultaneousUse
                                           : vk::CommandBufferUsageFlags{}));
  for (int i = 0; i < dispatches; ++i) {
    if (i > 0) record_pass_barrier(cmd);
    record_dispatch(cmd, device, pipeline, Bound{}, PushConstants{}, Grid{1, 1});
  }
  cmd.end();
  return cmd;
}

}  // namespace

std::vector<Overhead> measure_vulkan_overheads(Device& device) {
  device.raise_validation();
  const auto& dev = device.handle();
  const auto& queue = device.queue();
  const vk::Pipeline pipeline = device.pipelines().get({.module = "empty", .workgroup = 32});
  std::vector<Overhead> out;

  // GPU time per call of `calls` empty dispatches between the timestamps of one command buffer,
  // a compute barrier between them, as a variant's passes are recorded.
  auto gpu_per_call = [&](int calls) {
    TimedCommands timed(device);
    const auto& cmd = timed.begin();
    for (int i = 0; i < calls; ++i) {
      if (i > 0) record_pass_barrier(cmd);
      record_dispatch(cmd, device, pipeline, Bound{}, PushConstants{}, Grid{1, 1});
    }
    timed.end_timing();
    timed.end();
    std::vector<double> us;
    for (int i = 0; i <= kSamples; ++i) {
      const double ms = timed.run().device_ms;
      if (i > 0) us.push_back(1e3 * ms / calls);  // run 0 warms up
    }
    return us;
  };
  out.push_back(make_overhead(OverheadKind::dispatch_gpu, "empty dispatch, GPU time per call",
                              "one command buffer", gpu_per_call(kCalls),
                              "256 dispatches with a compute barrier between them, timestamps "
                              "around them"));
  // One empty dispatch in the interval every variant's single call is timed in: the floor of
  // every cold Vulkan number.
  out.push_back(make_overhead(OverheadKind::cold_interval,
                              "empty dispatch, cold: one call's interval", "one command buffer",
                              gpu_per_call(1),
                              "the timestamps around one dispatch, as a variant's call"));

  const vk::raii::CommandBuffer one = record_empty(device, 1, true, pipeline);
  const vk::raii::CommandBuffer many = record_empty(device, kCalls, false, pipeline);
  const vk::CommandBuffer one_handle = *one, many_handle = *many;
  vk::raii::Fence fence = XR_VK_CHECK(dev.createFence(vk::FenceCreateInfo()));
  auto submit = [&](vk::CommandBuffer cmd, vk::Fence f) {
    XR_VK_CHECK(queue.submit(vk::SubmitInfo({}, {}, cmd), f));
  };
  auto reset = [&] { XR_VK_CHECK(dev.resetFences(*fence)); };
  const Device::Wait spin = Device::Wait::spin, block = Device::Wait::block;
  for (int i = 0; i < 3; ++i) {  // warm-up
    reset();
    submit(one_handle, *fence);
    device.wait(fence, block);
  }

  // Host cost of one vkQueueSubmit, and per call with one submit per call against one command
  // buffer holding every call.
  std::vector<double> submit_us, per_submit_us, per_dispatch_us;
  for (int i = 0; i < kSamples; ++i) {
    reset();
    auto t0 = Clock::now();
    submit(one_handle, *fence);
    submit_us.push_back(us_since(t0));
    device.wait(fence, spin);

    reset();
    t0 = Clock::now();
    for (int c = 0; c + 1 < kCalls; ++c) submit(one_handle, nullptr);
    submit(one_handle, *fence);
    device.wait(fence, spin);
    per_submit_us.push_back(us_since(t0) / kCalls);

    reset();
    t0 = Clock::now();
    submit(many_handle, *fence);
    device.wait(fence, spin);
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

  // Round trips: submit to completion seen on the host, each way of waiting.
  std::vector<double> fence_block, fence_spin;
  for (int i = 0; i < kRoundTrips; ++i) {
    for (auto [how, samples] : {std::pair{block, &fence_block}, std::pair{spin, &fence_spin}}) {
      reset();
      const auto t0 = Clock::now();
      submit(one_handle, *fence);
      device.wait(fence, how);
      samples->push_back(us_since(t0));
    }
  }
  out.push_back(make_overhead(OverheadKind::round_trip, "round trip, host time",
                              "fence, vkWaitForFences", fence_block, "an empty dispatch"));
  out.push_back(make_overhead(OverheadKind::round_trip, "round trip, host time",
                              "fence, polled vkGetFenceStatus", fence_spin, "an empty dispatch"));

  if (device.facts().timeline_semaphore) {
    vk::SemaphoreTypeCreateInfo type(vk::SemaphoreType::eTimeline, 0);
    vk::raii::Semaphore timeline =
        XR_VK_CHECK(dev.createSemaphore(vk::SemaphoreCreateInfo({}, &type)));
    const vk::Semaphore handle = *timeline;
    std::uint64_t value = 0;
    std::vector<double> sem_block, sem_spin;
    const auto deadline_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(Device::kFenceTimeout).count();
    for (int i = 0; i < kRoundTrips; ++i) {
      for (bool polled : {false, true}) {
        ++value;
        vk::TimelineSemaphoreSubmitInfo values({}, value);
        vk::SubmitInfo info({}, {}, one_handle, handle);
        info.pNext = &values;
        const auto t0 = Clock::now();
        XR_VK_CHECK(queue.submit(info, nullptr));
        if (polled) {
          const auto deadline = Clock::now() + Device::kFenceTimeout;
          while (XR_VK_CHECK(timeline.getCounterValue()) < value)
            if (Clock::now() > deadline)
              throw Error(ErrorCategory::device_lost,
                          "Vulkan timeline semaphore never reached " + std::to_string(value));
        } else if (XR_VK_CHECK(dev.waitSemaphores(vk::SemaphoreWaitInfo({}, handle, value),
                                                  deadline_ns)) == vk::Result::eTimeout) {
          throw Error(ErrorCategory::device_lost, "Vulkan timeline semaphore wait timed out");
        }
        (polled ? sem_spin : sem_block).push_back(us_since(t0));
      }
    }
    out.push_back(make_overhead(OverheadKind::round_trip, "round trip, host time",
                                "timeline semaphore, vkWaitSemaphores", sem_block,
                                "an empty dispatch"));
    out.push_back(make_overhead(OverheadKind::round_trip, "round trip, host time",
                                "timeline semaphore, polled vkGetSemaphoreCounterValue", sem_spin,
                                "an empty dispatch"));
  }
  XR_VK_CHECK(queue.waitIdle());
  device.raise_validation();
  return out;
}

}  // namespace xr::vulkan
