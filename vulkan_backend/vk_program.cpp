#include "vk_program.hpp"

#include "xreduce/error.hpp"

namespace xr::vulkan {

Addressing addressing_for(const Device& device, std::uint64_t n,
                          std::initializer_list<vk::DeviceSize> buffer_bytes) {
  if (device.knobs().force_address || n >= (std::uint64_t{1} << 31)) return Addressing::address;
  for (vk::DeviceSize bytes : buffer_bytes)
    if (bytes > device.facts().limits.maxStorageBufferRange) return Addressing::address;
  return Addressing::binding;
}

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

Program::Program(Device& device, std::vector<ProgramPass> passes,
                 std::span<const OperandBuffers> sets, Addressing addressing, Op op,
                 std::optional<ReadBack> read_back, std::vector<const Buffer*> zeroed)
    : device_(&device),
      passes_(std::move(passes)),
      read_back_(read_back),
      zeroed_(std::move(zeroed)),
      single_(device) {
  for (const ProgramPass& p : passes_)
    pipelines_.push_back(device.pipelines().get(
        {.module = p.module.empty() ? module_name(p.shader, p.dtype, addressing) : p.module,
         .workgroup = p.workgroup,
         .unroll = p.unroll,
         .backoff = p.backoff,
         .op = op_constant(op),
         .mode = p.mode}));
  for (const OperandBuffers& s : sets)
    operands_.push_back({{s.src->address(), s.dst->address(), s.aux->address()}});
  if (addressing == Addressing::binding) {
    std::vector<BindingSets::Triple> triples;
    for (const OperandBuffers& s : sets)
      triples.push_back({s.src->handle(), s.dst->handle(), s.aux->handle()});
    sets_.emplace(device, triples);
    for (std::size_t i = 0; i < operands_.size(); ++i) operands_[i].set = (*sets_)[i];
  }
  if (read_back_)
    host_.emplace(device, read_back_->bytes, vk::BufferUsageFlagBits::eTransferDst,
                  MemoryKind::readback);
  record(single_, 1);
}

Program::~Program() {
  device_->drain();
}

Timing Program::run(int calls) {
  if (calls == 1) return single_.run();
  if (!batch_ || batch_calls_ != calls) {
    batch_.reset();
    batch_.emplace(*device_);
    record(*batch_, calls);
    batch_calls_ = calls;
  }
  return per_call(batch_->run(), calls);
}

void Program::record(TimedCommands& commands, int calls) {
  const auto& cmd = commands.begin();
  for (int c = 0; c < calls; ++c) {
    if (!zeroed_.empty()) record_zeroing(cmd, c > 0);
    for (std::size_t i = 0; i < passes_.size(); ++i) {
      if ((c > 0 && zeroed_.empty()) || i > 0)
        record_pass_barrier(cmd);  // a pass reads what the last one wrote
      const ProgramPass& p = passes_[i];
      if (p.module.empty())
        record_dispatch(cmd, *device_, pipelines_[i], operands_[p.operands], p.push, p.grid);
      else
        record_user_dispatch(cmd, *device_, pipelines_[i], operands_[p.operands].set, p.push,
                             p.grid);
    }
  }
  commands.end_timing();
  if (read_back_) {
    using A = vk::AccessFlagBits;
    using S = vk::PipelineStageFlagBits;
    const vk::MemoryBarrier written(A::eShaderWrite, A::eTransferRead);
    cmd.pipelineBarrier(S::eComputeShader, S::eTransfer, {}, written, {}, {});
    cmd.copyBuffer(read_back_->from->handle(), host_->handle(),
                   vk::BufferCopy(read_back_->offset, 0, read_back_->bytes));
    const vk::MemoryBarrier to_host(A::eTransferWrite, A::eHostRead);
    cmd.pipelineBarrier(S::eTransfer, S::eHost, {}, to_host, {}, {});
  }
  commands.end();
}

void Program::record_zeroing(const vk::raii::CommandBuffer& cmd, bool after_passes) const {
  using A = vk::AccessFlagBits;
  using S = vk::PipelineStageFlagBits;
  if (after_passes) {  // the last call's passes are done with the scratch
    const vk::MemoryBarrier done(A::eShaderRead | A::eShaderWrite, A::eTransferWrite);
    cmd.pipelineBarrier(S::eComputeShader, S::eTransfer, {}, done, {}, {});
  }
  for (const Buffer* b : zeroed_) cmd.fillBuffer(b->handle(), 0, VK_WHOLE_SIZE, 0);
  // The zeros, and the last call's writes of the other buffers, before the first pass.
  const vk::MemoryBarrier zeros(A::eTransferWrite | A::eShaderWrite,
                                A::eShaderRead | A::eShaderWrite);
  cmd.pipelineBarrier(S::eTransfer | S::eComputeShader, S::eComputeShader, {}, zeros, {}, {});
}

}  // namespace xr::vulkan
