#include "vk_commands.hpp"

#include <string>
#include <vector>

#include "vk_internal.hpp"
#include "xreduce/error.hpp"

namespace xr::vulkan {

BindingSets::BindingSets(Device& device, std::span<const Triple> triples) {
  const auto& dev = device.handle();
  const auto count = static_cast<std::uint32_t>(triples.size());
  const vk::DescriptorPoolSize sizes(vk::DescriptorType::eStorageBuffer, 3 * count);
  pool_ = XR_VK_CHECK(dev.createDescriptorPool(vk::DescriptorPoolCreateInfo(
      vk::DescriptorPoolCreateFlagBits::eFreeDescriptorSet, count, sizes)));
  const std::vector<vk::DescriptorSetLayout> layouts(count, device.pipelines().set_layout());
  sets_ =
      XR_VK_CHECK(vk::raii::DescriptorSets(dev, vk::DescriptorSetAllocateInfo(*pool_, layouts)));
  std::vector<vk::DescriptorBufferInfo> infos;
  infos.reserve(3 * triples.size());  // stable addresses for the writes below
  std::vector<vk::WriteDescriptorSet> writes;
  for (std::size_t s = 0; s < triples.size(); ++s)
    for (std::uint32_t b = 0; b < 3; ++b) {
      infos.emplace_back(triples[s][b], 0, VK_WHOLE_SIZE);
      writes.emplace_back(*sets_[s], b, 0, vk::DescriptorType::eStorageBuffer, nullptr,
                          infos.back());
    }
  dev.updateDescriptorSets(writes, {});
}

void record_dispatch(const vk::raii::CommandBuffer& cmd, const Device& device,
                     vk::Pipeline pipeline, const Bound& operands, const PushConstants& push,
                     Grid grid) {
  cmd.bindPipeline(vk::PipelineBindPoint::eCompute, pipeline);
  if (operands.set)
    cmd.bindDescriptorSets(vk::PipelineBindPoint::eCompute, device.pipelines().sets_layout(), 0,
                           operands.set, {});
  cmd.pushConstants<PushBlock>(device.pipelines().sets_layout(), vk::ShaderStageFlagBits::eCompute,
                               0, PushBlock{operands.addresses, push});
  cmd.dispatch(grid.x, grid.y, 1);
}

void record_user_dispatch(const vk::raii::CommandBuffer& cmd, const Device& device,
                          vk::Pipeline pipeline, vk::DescriptorSet set, const PushConstants& push,
                          Grid grid) {
  cmd.bindPipeline(vk::PipelineBindPoint::eCompute, pipeline);
  cmd.bindDescriptorSets(vk::PipelineBindPoint::eCompute, device.pipelines().sets_layout(), 0, set,
                         {});
  const std::array<std::uint32_t, 2> user_push{static_cast<std::uint32_t>(push.n), push.groups};
  cmd.pushConstants<std::array<std::uint32_t, 2>>(device.pipelines().sets_layout(),
                                                  vk::ShaderStageFlagBits::eCompute, 0, user_push);
  cmd.dispatch(grid.x, grid.y, 1);
}

void record_pass_barrier(const vk::raii::CommandBuffer& cmd) {
  using A = vk::AccessFlagBits;
  const vk::MemoryBarrier barrier(A::eShaderWrite, A::eShaderRead | A::eShaderWrite);
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eComputeShader,
                      vk::PipelineStageFlagBits::eComputeShader, {}, barrier, {}, {});
}

TimedCommands::TimedCommands(Device& device)
    : device_(&device), cmd_(device.allocate_command_buffer()) {
  if (device.facts().timestamps())
    queries_ = XR_VK_CHECK(
        device.handle().createQueryPool(vk::QueryPoolCreateInfo({}, vk::QueryType::eTimestamp, 2)));
}

const vk::raii::CommandBuffer& TimedCommands::begin() {
  cmd_.begin(vk::CommandBufferBeginInfo());
  if (*queries_) cmd_.resetQueryPool(*queries_, 0, 2);
  record_queue_barrier(cmd_);
  // The start is written once every earlier command (the queue barrier and its cache
  // maintenance) has completed, as a CUDA event completes after the work before it: a
  // top-of-pipe stamp would start the interval before the barrier drains.
  if (*queries_) cmd_.writeTimestamp(vk::PipelineStageFlagBits::eBottomOfPipe, *queries_, 0);
  return cmd_;
}

void TimedCommands::end_timing() {
  if (*queries_) cmd_.writeTimestamp(vk::PipelineStageFlagBits::eBottomOfPipe, *queries_, 1);
}

void TimedCommands::end() {
  cmd_.end();
}

Timing TimedCommands::run() {
  Timing timing;
  timing.host_ms = device_->submit_and_wait(cmd_);
  if (!*queries_) {
    timing.device_ms = timing.host_ms;
    timing.device_timer = false;
    return timing;
  }
  auto [result, ticks] = queries_.getResults<std::uint64_t>(
      0, 2, 2 * sizeof(std::uint64_t), sizeof(std::uint64_t), vk::QueryResultFlagBits::e64);
  if (result != vk::Result::eSuccess)
    throw Error(ErrorCategory::device_lost,
                "Vulkan timestamps not available after the fence signalled");
  const DeviceFacts& f = device_->facts();
  const std::uint64_t mask = f.timestamp_valid_bits >= 64
                                 ? ~std::uint64_t{0}
                                 : (std::uint64_t{1} << f.timestamp_valid_bits) - 1;
  timing.device_ms =
      static_cast<double>((ticks[1] - ticks[0]) & mask) * f.limits.timestampPeriod / 1e6;
  return timing;
}

}  // namespace xr::vulkan
