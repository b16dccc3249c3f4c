// What the library records for one reduce or scan: its passes, each a pipeline with the
// caller's operands at its three bindings, push constants and a grid, recorded with a barrier
// between passes and nothing before or after (the caller's barriers, docs/library.md).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>
#include "vk_hpp.hpp"

#include "vk_grid.hpp"
#include "vk_pipelines.hpp"
#include "xreduce/compiled.hpp"
#include "xreduce/pass_args.hpp"
#include "xreduce/types.hpp"
#include "xreduce/vulkan/operand.hpp"

namespace xr::vulkan {

struct ContextState;

// How a recording's shaders reach their operands (shaders/common.glsl): by binding, pushed,
// with 32-bit indices, where the device has push descriptors, every range fits one binding and
// n < 2^31 (as fast on a GPU, faster on a CPU device, and seen by synchronization validation;
// docs/results/H200/tuning-notes.md); else by device address with 64-bit indices.
// XR_VK_ADDRESSING=address (the tool's knob) forces the second.
enum class Addressing { binding, address };

// Which of the caller's operands a pass reaches at each binding (src, dst, aux): core's buffer
// roles (xreduce/pass_args.hpp), in which its plans are written.
using Role = BufferRole;
using Roles = PassBuffers;
inline constexpr std::size_t kRoles = 3;

// The module of an algorithm for one dtype and addressing: "<shader>.<dtype>[.addr]".
std::string module_name(std::string_view shader, DType t, Addressing a);
// The operator's specialization constant (shaders/common.glsl: XR_OP).
std::uint32_t op_constant(Op op);

struct RecordedPass {
  vk::Pipeline pipeline;
  std::string module;           // the pipeline's SPIR-V module, for compiled()
  std::uint32_t workgroup = 0;  // its invocations per workgroup
  Roles roles{Role::input, Role::output, Role::scratch};
  PushConstants push;
  Grid grid;
  bool takes_kind = false;  // the pass writes the caller's output: its flags take record's
};

class Recording {
 public:
  // `call`: the public call that records it ("Scan::record"), for its refusals. `bytes`: each
  // role's range (input, output, scratch), for the bindings, the checks and the choice of
  // addressing.
  Recording(const ContextState& context, std::string_view call, OperandKind operands,
            std::uint64_t n, std::array<vk::DeviceSize, kRoles> bytes);

  Addressing addressing() const { return addressing_; }
  const ContextState& context() const { return *context_; }
  void add(RecordedPass pass) { passes_.push_back(pass); }
  // Records every pass over `operands` (by role); `kind_flags` go to the passes that take them.
  // Error(usage) for an operand that is null, misaligned, of the wrong kind, short or overlapping
  // another (vk_operands.hpp).
  void record(VkCommandBuffer cmd, const std::array<Operand, kRoles>& operands,
              std::uint32_t kind_flags) const;
  // What each pass compiled into and how it dispatches (vk_compiled.hpp).
  std::vector<CompiledPass> compiled() const;

 private:
  struct Resolved {
    std::array<VkDescriptorBufferInfo, kRoles> infos{};
    std::array<VkDeviceAddress, kRoles> addresses{};
  };
  Resolved resolve(const std::array<Operand, kRoles>& operands) const;
  void record_pass(VkCommandBuffer cmd, const RecordedPass& pass, const Resolved& resolved,
                   std::uint32_t kind_flags) const;

  const ContextState* context_;
  std::string_view call_;
  Addressing addressing_;
  std::array<vk::DeviceSize, kRoles> bytes_;
  std::vector<RecordedPass> passes_;
};

// The device address an operand reaches: its own, or its buffer's plus its offset (the buffer
// made with VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT).
VkDeviceAddress operand_address(const ContextState& context, const Operand& o);

// Pushes the storage buffer `buffers[b]` at binding b of the library's layout (the bindings a pass
// reads, in order: VK_KHR_push_descriptor), for the pipeline bound next.
void record_pushed_buffers(const ContextState& context, VkCommandBuffer cmd,
                           std::span<const VkDescriptorBufferInfo* const> buffers);

// Records the barrier that orders every earlier compute-shader write before every later
// compute-shader access: between the passes of one call.
// Besides: `Indirect::after_reads`, the later writes also wait for earlier dispatches' reads of
// their grids (vkCmdDispatchIndirect); `Indirect::before_reads`, the earlier writes are also read
// as a later dispatch's grid.
enum class Indirect { none, after_reads, before_reads };
void record_compute_barrier(const vk::raii::DeviceDispatcher& d, VkCommandBuffer cmd,
                            Indirect indirect = Indirect::none);
// Zeroes `bytes` of `buffer` from `offset`, ordered after every earlier compute-shader,
// indirect-command and transfer access and before later compute shaders: a scratch's
// initialisation (`call`: "Scan::record_scratch_init"), first or again after another object's
// records, with no barrier of the caller's; refused where the buffer holds fewer bytes from
// `offset`.
void record_zero_fill(const ContextState& context, std::string_view call, VkCommandBuffer cmd,
                      VkBuffer buffer, VkDeviceSize offset, VkDeviceSize bytes);

}  // namespace xr::vulkan
