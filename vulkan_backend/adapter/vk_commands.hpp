// The pieces every recording is made of: operands bound by descriptor set or pushed by address,
// grids for any number of workgroups, one dispatch, the barrier between passes, and a command
// buffer recorded once between two timestamps and resubmitted for every call.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include "vk_internal.hpp"

#include "vk_device.hpp"
#include "xreduce/backend.hpp"

namespace xr::vulkan {

// Descriptor sets of the shared layout (three storage-buffer bindings), one per triple of whole
// buffers. Only for recordings by binding: a buffer past maxStorageBufferRange cannot be bound.
class BindingSets {
 public:
  using Triple = std::array<vk::Buffer, 3>;
  BindingSets(Device& device, std::span<const Triple> triples);
  vk::DescriptorSet operator[](std::size_t i) const { return *sets_[i]; }

 private:
  vk::raii::DescriptorPool pool_{nullptr};
  vk::raii::DescriptorSets sets_{nullptr};
};

// The operands of a pass both ways: the addresses always (pushed), the set where it binds.
struct Bound {
  Operands addresses;
  vk::DescriptorSet set = nullptr;
};

// Binds, pushes and dispatches one pass of the shared pipeline layout.
void record_dispatch(const vk::raii::CommandBuffer& cmd, const Device& device,
                     vk::Pipeline pipeline, const Bound& operands, const PushConstants& push,
                     Grid grid);
// Binds, pushes the user ABI's { n, tiles } (push.n, push.groups) and dispatches one pass of a
// user's kernel (vk_user_module.hpp), which reaches its buffers by binding only.
void record_user_dispatch(const vk::raii::CommandBuffer& cmd, const Device& device,
                          vk::Pipeline pipeline, vk::DescriptorSet set, const PushConstants& push,
                          Grid grid);
// Orders every earlier compute-shader write before every later compute-shader access: between
// the passes of one call.
void record_pass_barrier(const vk::raii::CommandBuffer& cmd);

// One command buffer holding a call: begin() starts it with the queue barrier and the first
// timestamp (written once the barrier has completed), end_timing() writes the second (commands
// after it, such as a result's read-back, are not timed), end() closes it. run() submits it and
// returns the timing: the timestamps' interval where the queue has them, else the host's
// submit-to-fence time.
class TimedCommands {
 public:
  explicit TimedCommands(Device& device);
  const vk::raii::CommandBuffer& begin();
  void end_timing();
  void end();
  Timing run();

 private:
  Device* device_;
  vk::raii::QueryPool queries_{nullptr};
  vk::raii::CommandBuffer cmd_;
};

// The share of one call in the timing of `calls` back-to-back calls.
inline Timing per_call(Timing t, int calls) {
  t.device_ms /= calls;
  t.host_ms /= calls;
  return t;
}

}  // namespace xr::vulkan
