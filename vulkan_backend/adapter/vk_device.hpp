// The logical device of one physical device: its compute queue, the command pool and fence every
// submission shares (the backend is single-threaded), its pipelines and the staging of
// transfers. Held by shared_ptr: arrays, reducers and scanners keep it alive.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include "vk_internal.hpp"

#include "vk_instance.hpp"

namespace xr::vulkan {

class Buffer;
struct Staging;  // vk_transfer.hpp

class Device {
 public:
  Device(std::shared_ptr<Instance> instance, std::size_t index);
  ~Device();  // waits for the queue to drain (no-throw) before anything is destroyed
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceFacts& facts() const { return instance_->devices()[index_]; }
  const VulkanKnobs& knobs() const { return instance_->knobs(); }
  const vk::raii::Device& handle() const { return device_; }
  const vk::raii::Queue& queue() const { return queue_; }
  // The library's Context over this device (xreduce/vulkan), and its pipelines.
  const Context& context() const { return *context_; }
  Pipelines& pipelines() { return *state_of(*context_).pipelines; }
  const Pipelines& pipelines() const { return *state_of(*context_).pipelines; }

  // Waits for the queue to drain (no-throw): objects holding command buffers call it before
  // freeing them, which after a timed-out fence may still be pending.
  void drain() const noexcept;
  vk::raii::CommandBuffer allocate_command_buffer();
  // Submits `cmd` and waits for its fence; a wait longer than the timeout (knobs().timeout) ends
  // in device_timed_out (Error(device_lost)). Returns the host time from submit to completion, in
  // ms.
  double submit_and_wait(const vk::raii::CommandBuffer& cmd);
  // How a fence is waited for: polling vkGetFenceStatus or one blocking vkWaitForFences.
  // submit_and_wait spins on a GPU (kGpuWait) and blocks on a CPU device, whose work runs on the
  // host's cores: a spinning thread would take one from it.
  enum class Wait { spin, block };
  // Waits for `fence` the `how` way, bounded by knobs().timeout (then device_timed_out).
  void wait(const vk::raii::Fence& fence, Wait how) const;
  // The way this device's submissions are waited for.
  Wait default_wait() const { return facts().cpu() ? Wait::block : kGpuWait; }
  // Binds `binds` (blocks of memory) to the sparse buffer `buffer` on the queue and waits.
  void bind_sparse(vk::Buffer buffer, std::span<const vk::SparseMemoryBind> binds);
  // Records `record` into a fresh command buffer after the queue barrier, submits it and waits.
  void run_once(const std::function<void(const vk::raii::CommandBuffer&)>& record);

  // Blocking copies between host memory and a device-local buffer, through two staging buffers
  // kept for the device's life: the copy of one chunk overlaps the (parallel) host copy of the
  // next (vk_transfer.cpp).
  void write_buffer(const Buffer& dst, const void* src, std::size_t bytes,
                    vk::DeviceSize dst_offset = 0);
  void read_buffer(const Buffer& src, void* dst, std::size_t bytes);

  // Throws the validation messages collected so far (see ValidationSink).
  void raise_validation() { instance_->sink().raise(); }

  // A wait this long means the device stopped answering (XR_DEVICE_TIMEOUT, core's
  // DeviceTimeout); device_timed_out then ends the wait.
  std::chrono::milliseconds timeout() const { return knobs().timeout.limit; }
  [[noreturn]] void timed_out(std::string_view what) const;
  // Polling the fence: the blocking vkWaitForFences sleeps and is woken, which lengthens the
  // host round trip of an empty call (`compare --overheads`); the timeline semaphore is no
  // faster (docs/results/H200/tuning-notes.md). CUDA's synchronise spins too.
  static constexpr Wait kGpuWait = Wait::spin;

 private:
  std::shared_ptr<Instance> instance_;
  std::size_t index_;
  vk::raii::Device device_{nullptr};
  vk::raii::Queue queue_{nullptr};
  vk::raii::CommandPool command_pool_{nullptr};
  vk::raii::Fence fence_{nullptr};
  std::optional<Context> context_;
  // Last: its command buffers and fences go before the pool and the device.
  std::unique_ptr<Staging> staging_;  // created by the first transfer
};

// A memory barrier that orders every earlier compute-shader or transfer write before every
// later compute-shader or transfer access; recorded at the start of each command buffer so
// successive submissions on the queue (upload, reduce, restore, read) never race.
void record_queue_barrier(const vk::raii::CommandBuffer& cmd);

}  // namespace xr::vulkan
