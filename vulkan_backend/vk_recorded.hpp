// Recording helpers shared by the reduce and scan plans and the probes: how a plan reaches its
// operands (descriptor sets or device addresses), grids for any number of workgroups, and a
// command buffer recorded once between two timestamps and resubmitted for every call.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "vk_context.hpp"
#include "xreduce/backend.hpp"

namespace xr::vulkan {

// How a plan's shaders reach their operands (shaders/common.glsl): by descriptor binding with
// 32-bit indices where every buffer fits one binding and n < 2^31 (as fast on an H200, 2-3x
// faster on lavapipe, and seen by synchronization validation), else by device address with
// 64-bit indices. XR_VK_ADDRESSING=address forces the second (DeviceFacts::force_address).
enum class Addressing { binding, address };
Addressing addressing_for(const DeviceFacts& f, std::uint64_t n,
                          std::initializer_list<vk::DeviceSize> buffer_bytes);
// The module of an algorithm for one dtype and addressing: "<shader>.<dtype>[.addr]".
std::string module_name(std::string_view shader, DType t, Addressing a);
// The operator's specialization constant (shaders/common.glsl: XR_OP).
std::uint32_t op_constant(Op op);

// Descriptor sets of the shared layout (three storage-buffer bindings), one per triple of whole
// buffers. Only for plans by binding: a buffer past maxStorageBufferRange cannot be bound.
class BindingSets {
 public:
  using Triple = std::array<vk::Buffer, 3>;
  BindingSets(Device& device, std::span<const Triple> triples);
  vk::DescriptorSet operator[](std::size_t i) const { return *sets_[i]; }

 private:
  vk::raii::DescriptorPool pool_{nullptr};
  vk::raii::DescriptorSets sets_{nullptr};
};

// The operands of a pass both ways: the addresses always (pushed), the set where the plan binds.
struct Bound {
  Operands addresses;
  vk::DescriptorSet set = nullptr;
};

// A dispatch of `groups` workgroups: 1-D where maxComputeWorkGroupCount[0] allows, else 2-D
// (shaders linearise with linear_workgroup() and return past pc.groups).
struct Grid {
  std::uint32_t x = 1, y = 1;
};
// Error(unsupported) when even a 2-D grid cannot hold `groups`; `what` names the variant.
Grid grid_for(std::uint64_t groups, const DeviceFacts& facts, std::string_view what);

// Binds, pushes and dispatches one pass of the shared pipeline layout.
void record_dispatch(const vk::raii::CommandBuffer& cmd, const Device& device,
                     vk::Pipeline pipeline, const Bound& operands, const PushConstants& push,
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

// A count of workgroups or tiles: callers keep it below 2^32 (n / tile).
inline std::uint32_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return static_cast<std::uint32_t>((a + b - 1) / b);
}
// Scratch offsets in 4-byte elements, kept at 16 bytes so vector loads of a region stay aligned.
inline std::uint32_t round_up4(std::uint32_t x) {
  return (x + 3u) & ~3u;
}

}  // namespace xr::vulkan
