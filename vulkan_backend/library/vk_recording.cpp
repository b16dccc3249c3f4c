#include "vk_recording.hpp"

#include "vk_compiled.hpp"

#include "vk_context.hpp"
#include "vk_operands.hpp"
#include "xreduce/error.hpp"

namespace xr::vulkan {
namespace {

Addressing addressing_for(const ContextState& c, OperandKind operands, std::uint64_t n,
                          const std::array<vk::DeviceSize, kRoles>& bytes) {
  if (operands == OperandKind::addresses || !c.facts.push_descriptors || c.knobs.force_address ||
      n >= (std::uint64_t{1} << 31))
    return Addressing::address;
  for (vk::DeviceSize b : bytes)
    if (b > c.facts.limits.maxStorageBufferRange) return Addressing::address;
  return Addressing::binding;
}

const char* role_name(std::size_t role) {
  static constexpr const char* kNames[] = {"in", "out", "scratch"};
  return kNames[role];
}

}  // namespace

std::string module_name(std::string_view shader, DType t, Addressing a) {
  return std::string(shader) + "." + std::string(to_string(t)) +
         (a == Addressing::address ? ".addr" : "");
}

std::uint32_t op_constant(Op op) {
  switch (op) {
    case Op::sum:
      return 0;
    case Op::min:
      return 1;
    case Op::max:
      return 2;
  }
  throw Error(ErrorCategory::usage, "vulkan: unknown operator");
}

Recording::Recording(const ContextState& context, std::string_view call, OperandKind operands,
                     std::uint64_t n, std::array<vk::DeviceSize, kRoles> bytes)
    : context_(&context),
      call_(call),
      addressing_(addressing_for(context, operands, n, bytes)),
      bytes_(bytes) {}

Recording::Resolved Recording::resolve(const std::array<Operand, kRoles>& operands) const {
  const bool bound = addressing_ == Addressing::binding;
  check_operands(*context_, call_, "this call, made for OperandKind::buffers,",
                 {{operands[0], bytes_[0], bound, "in"},
                  {operands[1], bytes_[1], bound, "out"},
                  {operands[2], bytes_[2], bound, "scratch", " (scratch_size())"}});
  Resolved r;
  for (std::size_t i = 0; i < kRoles; ++i) {
    const Operand& o = operands[i];
    // An operand the call reaches no byte of is still bound: it must be there.
    if (!o.buffer && !o.address)
      throw Error(ErrorCategory::usage, "xreduce::vulkan: " + std::string(call_) + ": `" +
                                            role_name(i) + "` has neither a buffer nor an address");
    if (bound)
      r.infos[i] = {o.buffer, o.offset, bytes_[i]};
    else
      r.addresses[i] = operand_address(*context_, o);
  }
  return r;
}

void Recording::record(VkCommandBuffer cmd, const std::array<Operand, kRoles>& operands,
                       std::uint32_t kind_flags) const {
  if (passes_.empty()) return;  // a scan of nothing
  const Resolved resolved = resolve(operands);
  for (std::size_t i = 0; i < passes_.size(); ++i) {
    if (i > 0) record_compute_barrier(context_->dispatch(), cmd);  // a pass reads the last's
    record_pass(cmd, passes_[i], resolved, kind_flags);
  }
}

std::vector<CompiledPass> Recording::compiled() const {
  std::vector<CompiledPass> out;
  for (const RecordedPass& p : passes_)
    out.push_back(compiled_pass(*context_->device, context_->facts, p.pipeline, p.module,
                                p.workgroup, p.grid));
  return out;
}

void Recording::record_pass(VkCommandBuffer cmd, const RecordedPass& pass, const Resolved& resolved,
                            std::uint32_t kind_flags) const {
  const auto& d = context_->dispatch();
  const VkPipelineLayout layout = context_->pipelines->pushed_layout();
  d.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pass.pipeline);
  PushBlock block{{}, pass.push};
  if (pass.takes_kind) block.sizes.flags |= kind_flags;
  if (addressing_ == Addressing::binding) {
    std::array<const VkDescriptorBufferInfo*, kRoles> buffers{};
    for (std::size_t b = 0; b < kRoles; ++b)
      buffers[b] = &resolved.infos[static_cast<std::size_t>(pass.roles[b])];
    record_pushed_buffers(*context_, cmd, buffers);
  } else {
    block.operands = {resolved.addresses[static_cast<std::size_t>(pass.roles[0])],
                      resolved.addresses[static_cast<std::size_t>(pass.roles[1])],
                      resolved.addresses[static_cast<std::size_t>(pass.roles[2])]};
  }
  d.vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof block, &block);
  d.vkCmdDispatch(cmd, pass.grid.x, pass.grid.y, 1);
}

VkDeviceAddress operand_address(const ContextState& context, const Operand& o) {
  if (!o.buffer) return o.address;
  const VkBufferDeviceAddressInfo info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, nullptr,
                                       o.buffer};
  return context.dispatch().vkGetBufferDeviceAddress(**context.device, &info) + o.offset;
}

void record_pushed_buffers(const ContextState& context, VkCommandBuffer cmd,
                           std::span<const VkDescriptorBufferInfo* const> buffers) {
  std::array<VkWriteDescriptorSet, kLibraryBindings> writes{};
  for (std::uint32_t b = 0; b < buffers.size(); ++b)
    writes[b] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, VK_NULL_HANDLE, b,      0, 1,
                 VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,      nullptr, buffers[b],     nullptr};
  context.dispatch().vkCmdPushDescriptorSetKHR(
      cmd, VK_PIPELINE_BIND_POINT_COMPUTE, context.pipelines->pushed_layout(), 0,
      static_cast<std::uint32_t>(buffers.size()), writes.data());
}

void record_compute_barrier(const vk::raii::DeviceDispatcher& d, VkCommandBuffer cmd,
                            Indirect indirect) {
  const bool before = indirect == Indirect::before_reads;
  const VkMemoryBarrier barrier{
      VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT,
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
          (before ? VkAccessFlags{VK_ACCESS_INDIRECT_COMMAND_READ_BIT} : VkAccessFlags{0})};
  const VkPipelineStageFlags compute = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
  const VkPipelineStageFlags indirect_reads = VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT;
  d.vkCmdPipelineBarrier(cmd, compute | (indirect == Indirect::after_reads ? indirect_reads : 0),
                         compute | (before ? indirect_reads : 0), 0, 1, &barrier, 0, nullptr, 0,
                         nullptr);
}

void record_zero_fill(const ContextState& context, std::string_view call, VkCommandBuffer cmd,
                      VkBuffer buffer, VkDeviceSize offset, VkDeviceSize bytes) {
  if (!bytes) return;
  check_operands(context, call, "the fill",
                 {{Operand::of(buffer, offset), bytes, true, "scratch", " (scratch_size())"}});
  if (offset % 4 || bytes % 4)
    throw Error(ErrorCategory::usage, "xreduce::vulkan: " + std::string(call) +
                                          ": the offset is not a multiple of 4 bytes");
  const auto& d = context.dispatch();
  // The scratch may still be read and written by an earlier record (of another Sort, Scan or
  // Reduce), its grids read by an indirect dispatch, or copied: all of it before the fill.
  const VkMemoryBarrier earlier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr,
                                VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                                VK_ACCESS_TRANSFER_WRITE_BIT};
  d.vkCmdPipelineBarrier(cmd,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                             VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &earlier, 0, nullptr, 0, nullptr);
  d.vkCmdFillBuffer(cmd, buffer, offset, bytes, 0);
  const VkMemoryBarrier zeros{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr,
                              VK_ACCESS_TRANSFER_WRITE_BIT,
                              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
  d.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         0, 1, &zeros, 0, nullptr, 0, nullptr);
}

}  // namespace xr::vulkan
