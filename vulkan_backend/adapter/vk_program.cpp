#include "vk_program.hpp"

#include "vk_internal.hpp"

#include "xreduce/error.hpp"

namespace xr::vulkan {

Program::Program(Device& device, CallRecorder record_call, std::optional<ReadBack> read_back,
                 std::vector<ZeroedBytes> zeroed, Deferred)
    : device_(&device),
      record_call_(std::move(record_call)),
      read_back_(read_back),
      zeroed_(std::move(zeroed)),
      single_(device) {
  if (read_back_)
    host_.emplace(device, read_back_->bytes, vk::BufferUsageFlagBits::eTransferDst,
                  MemoryKind::readback);
}

Program::Program(Device& device, CallRecorder record_call, std::optional<ReadBack> read_back,
                 std::vector<ZeroedBytes> zeroed)
    : Program(device, std::move(record_call), read_back, std::move(zeroed), Deferred{}) {
  record(single_, 1);
}

Program::Program(Device& device, std::vector<ProgramPass> passes,
                 std::span<const OperandBuffers> sets, Op op, std::optional<ReadBack> read_back,
                 std::vector<ZeroedBytes> zeroed)
    : Program(
          device, [this](const vk::raii::CommandBuffer& cmd) { record_user_passes(cmd); },
          read_back, std::move(zeroed), Deferred{}) {
  passes_ = std::move(passes);
  for (const ProgramPass& p : passes_)
    pipelines_.push_back(device.pipelines().get({.module = p.module,
                                                 .workgroup = p.workgroup,
                                                 .op = op_constant(op),
                                                 .descriptor_sets = true}));
  std::vector<BindingSets::Triple> triples;
  for (const OperandBuffers& s : sets)
    triples.push_back({s.src->handle(), s.dst->handle(), s.aux->handle()});
  sets_.emplace(device, triples);
  record(single_, 1);
}

std::vector<CompiledPass> Program::compiled() const {
  std::vector<CompiledPass> out;
  const ContextState& c = state_of(device_->context());
  for (std::size_t i = 0; i < passes_.size(); ++i)
    out.push_back(compiled_pass(*c.device, c.facts, pipelines_[i], passes_[i].module,
                                passes_[i].workgroup, passes_[i].grid));
  return out;
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
    if (!zeroed_.empty())
      record_zeroing(cmd, c > 0);
    else if (c > 0)
      record_pass_barrier(cmd);  // a call reads the scratch the last one wrote
    record_call_(cmd);
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

void Program::record_user_passes(const vk::raii::CommandBuffer& cmd) const {
  for (std::size_t i = 0; i < passes_.size(); ++i) {
    if (i > 0) record_pass_barrier(cmd);  // a pass reads what the last one wrote
    const ProgramPass& p = passes_[i];
    record_user_dispatch(cmd, *device_, pipelines_[i], (*sets_)[p.operands], p.push, p.grid);
  }
}

void Program::record_zeroing(const vk::raii::CommandBuffer& cmd, bool after_passes) const {
  using A = vk::AccessFlagBits;
  using S = vk::PipelineStageFlagBits;
  if (after_passes) {  // the last call's passes are done with the scratch
    const vk::MemoryBarrier done(A::eShaderRead | A::eShaderWrite, A::eTransferWrite);
    cmd.pipelineBarrier(S::eComputeShader, S::eTransfer, {}, done, {}, {});
  }
  // vkCmdFillBuffer takes whole words: the range rounded up, into the buffer's slack.
  for (const ZeroedBytes& z : zeroed_)
    cmd.fillBuffer(z.buffer->handle(), 0, (z.bytes + 3) & ~vk::DeviceSize{3}, 0);
  // The zeros, and the last call's writes of the other buffers, before the first pass.
  const vk::MemoryBarrier zeros(A::eTransferWrite | A::eShaderWrite,
                                A::eShaderRead | A::eShaderWrite);
  cmd.pipelineBarrier(S::eTransfer | S::eComputeShader, S::eComputeShader, {}, zeros, {}, {});
}

}  // namespace xr::vulkan
