#include "vulkan_replay.hpp"

#include <cuda.h>

#include <cstring>

namespace xr::onebin {
namespace {

constexpr std::uint64_t kWaitNs = 20'000'000'000ull;

vk::raii::CuModuleNVX load_module(const VulkanDevice& d, const std::string& ptx) {
  // The PTX as text with its NUL, as cuModuleLoadData takes it.
  const vk::CuModuleCreateInfoNVX info(ptx.size() + 1, ptx.c_str());
  return XR_VK(vk::raii::CuModuleNVX(d.device(), info));
}

vk::raii::CommandPool make_pool(const VulkanDevice& d) {
  return XR_VK(vk::raii::CommandPool(
      d.device(),
      vk::CommandPoolCreateInfo(vk::CommandPoolCreateFlagBits::eResetCommandBuffer, d.family())));
}

std::uint32_t timestamp_count(const Recording& r) {
  return static_cast<std::uint32_t>(r.steps.size() + 1);
}

void full_barrier(const vk::raii::CommandBuffer& cmd) {
  const vk::MemoryBarrier all(vk::AccessFlagBits::eMemoryWrite,
                              vk::AccessFlagBits::eMemoryRead | vk::AccessFlagBits::eMemoryWrite);
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eAllCommands,
                      vk::PipelineStageFlagBits::eAllCommands, {}, all, {}, {});
}

}  // namespace

void refuse_past_nvx_limit(const Recording& r) {
  for (const Step& s : r.steps)
    if (const auto* k = std::get_if<KernelStep>(&s); k && k->shared_bytes > kNvxSharedLimit)
      throw Error(ErrorCategory::unsupported,
                  "not tried: " + describe_step(s) + " is past the " +
                      std::to_string(kNvxSharedLimit) +
                      " B of shared memory VK_NVX_binary_import launches (49152 B ran, 65536 B "
                      "lost the device, static or dynamic; H200, driver 580.159.04); "
                      "--vulkan-past-limit tries it");
}

VulkanReplay::VulkanReplay(const DeviceUuid& uuid, const PtxModule& ptx, const Recording& r,
                           const SortCase& c, std::uint64_t flush_bytes, SharedForm form,
                           ParamForm params)
    : owned_(std::make_unique<VulkanDevice>(uuid)),
      device_(*owned_),
      recording_(r),
      case_(c),
      form_(form),
      param_form_(params),
      flush_(VulkanBuffer::device_local(device_, flush_bytes)),
      pool_(make_pool(device_)),
      commands_(XR_VK(vk::raii::CommandBuffers(
          device_.device(),
          vk::CommandBufferAllocateInfo(*pool_, vk::CommandBufferLevel::ePrimary, 3)))),
      timestamps_(XR_VK(vk::raii::QueryPool(
          device_.device(),
          vk::QueryPoolCreateInfo({}, vk::QueryType::eTimestamp, timestamp_count(r))))),
      fence_(XR_VK(vk::raii::Fence(device_.device(), vk::FenceCreateInfo()))) {
  const SlotBases bases = make_slots();
  load_kernels(ptx, bases);
  upload_input();
  record_call(commands_[1], Marks::call);
  record_call(commands_[2], Marks::steps);
}

SlotBases VulkanReplay::make_slots() {
  SlotBases bases{};
  for (unsigned s = 0; s < kSlots; ++s) {
    if (!recording_.slots[s]) continue;
    slots_[s].emplace(VulkanBuffer::device_local(device_, recording_.slots[s]));
    bases[s] = slots_[s]->address();
    if (bases[s] % alignment_of(Slot(s)))
      throw Error(ErrorCategory::unsupported, "vulkan: the buffer of " +
                                                  std::string(to_string(Slot(s))) +
                                                  " is not aligned as the library needs");
  }
  return bases;
}

std::size_t VulkanReplay::function_of(const PtxModule& ptx, const KernelStep& k) {
  for (std::size_t i = 0; i < function_entries_.size(); ++i) {
    if (function_entries_[i] != k.entry) continue;
    if (form_ == SharedForm::made_static && function_shared_[i] != k.shared_bytes)
      throw Error(ErrorCategory::unsupported, "vulkan: " + short_name(k) +
                                                  " launches with two sizes of dynamic shared "
                                                  "memory: one static size cannot serve both");
    return i;
  }
  PtxModule own = ptx.keep({k.entry});
  if (form_ == SharedForm::made_static) own = own.with_static_shared(k.entry, k.shared_bytes);
  modules_.push_back(load_module(device_, own.text()));
  functions_.push_back(XR_VK(vk::raii::CuFunctionNVX(
      device_.device(), vk::CuFunctionCreateInfoNVX(*modules_.back(), k.entry.c_str()))));
  function_entries_.push_back(k.entry);
  function_shared_.push_back(k.shared_bytes);
  return functions_.size() - 1;
}

void VulkanReplay::load_kernels(const PtxModule& ptx, const SlotBases& bases) {
  const std::size_t n = recording_.steps.size();
  params_.resize(n);
  param_ptrs_.resize(n);
  param_sizes_.assign(n, 0);
  param_extras_.assign(n, {});
  function_of_step_.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto* k = std::get_if<KernelStep>(&recording_.steps[i]);
    if (!k) continue;
    function_of_step_[i] = function_of(ptx, *k);
    params_[i] = bind_params(*k, bases);
    param_sizes_[i] = params_[i].size();
    for (const ParamSpan& p : k->params) param_ptrs_[i].push_back(params_[i].data() + p.offset);
    param_extras_[i] = {CU_LAUNCH_PARAM_BUFFER_POINTER, params_[i].data(),
                        CU_LAUNCH_PARAM_BUFFER_SIZE, &param_sizes_[i], CU_LAUNCH_PARAM_END};
  }
}

vk::Buffer VulkanReplay::buffer(Slot s) const {
  const auto& slot = slots_.at(static_cast<unsigned>(s));
  if (!slot)
    throw Error(ErrorCategory::check_failed,
                "vulkan: the call has no buffer of " + std::string(to_string(s)));
  return slot->get();
}

void VulkanReplay::record_step(const vk::raii::CommandBuffer& cmd, std::size_t step) const {
  if (const auto* f = std::get_if<FillStep>(&recording_.steps[step])) {
    if (f->offset % 4 || f->bytes % 4)
      throw Error(ErrorCategory::unsupported,
                  "vulkan: a fill at byte " + std::to_string(f->offset) + " of " +
                      std::to_string(f->bytes) + " B: vkCmdFillBuffer takes whole words");
    cmd.fillBuffer(buffer(f->slot), f->offset, f->bytes, fill_word(*f));
    return;
  }
  const auto& k = std::get<KernelStep>(recording_.steps[step]);
  const auto& ptrs = param_ptrs_[step];
  const bool buffer = param_form_ == ParamForm::buffer;
  cmd.cuLaunchKernelNVX(vk::CuLaunchInfoNVX(
      *functions_[function_of_step_[step]], k.grid.x, k.grid.y, k.grid.z, k.block.x, k.block.y,
      k.block.z, form_ == SharedForm::dynamic ? k.shared_bytes : 0, buffer ? 0 : ptrs.size(),
      buffer ? nullptr : ptrs.data(), buffer ? param_extras_[step].size() : 0,
      buffer ? param_extras_[step].data() : nullptr));
}

void VulkanReplay::record_call(const vk::raii::CommandBuffer& cmd, Marks marks) const {
  cmd.begin(vk::CommandBufferBeginInfo());
  cmd.resetQueryPool(*timestamps_, 0, timestamp_count(recording_));
  cmd.fillBuffer(flush_.get(), 0, VK_WHOLE_SIZE, 0);
  full_barrier(cmd);
  std::uint32_t query = 0;
  cmd.writeTimestamp(vk::PipelineStageFlagBits::eBottomOfPipe, *timestamps_, query++);
  for (std::size_t i = 0; i < recording_.steps.size(); ++i) {
    record_step(cmd, i);
    full_barrier(cmd);
    if (marks == Marks::steps || i + 1 == recording_.steps.size())
      cmd.writeTimestamp(vk::PipelineStageFlagBits::eBottomOfPipe, *timestamps_, query++);
  }
  cmd.end();
}

void VulkanReplay::submit_and_wait(const vk::raii::CommandBuffer& cmd, const char* what) const {
  const vk::CommandBuffer raw = *cmd;
  XR_VK(device_.queue().submit(vk::SubmitInfo({}, {}, raw), *fence_));
  const vk::Result r = XR_VK(device_.device().waitForFences(*fence_, VK_TRUE, kWaitNs));
  if (r != vk::Result::eSuccess)
    throw Error(
        ErrorCategory::device_lost,
        std::string("vulkan: ") + what + " did not finish in 20 s (" + vk::to_string(r) + ")");
  device_.device().resetFences(*fence_);
}

Sample VulkanReplay::run(Marks marks) {
  submit_and_wait(commands_[marks == Marks::call ? 1 : 2], "a timed call");
  const std::uint32_t n = marks == Marks::call ? 2 : timestamp_count(recording_);
  const auto [result, ticks] = XR_VK(timestamps_.getResults<std::uint64_t>(
      0, n, n * sizeof(std::uint64_t), sizeof(std::uint64_t),
      vk::QueryResultFlagBits::e64 | vk::QueryResultFlagBits::eWait));
  if (result != vk::Result::eSuccess)
    throw Error(ErrorCategory::device_lost, "vulkan: the timestamps are not available");
  std::vector<double> ms;
  for (std::uint32_t i = 1; i < n; ++i)
    ms.push_back(double((ticks[i] - ticks[i - 1]) & device_.timestamp_mask()) *
                 device_.timestamp_ns() * 1e-6);
  return sample_of(ms, marks);
}

void VulkanReplay::first_run() {
  const vk::raii::CommandBuffer& cmd = commands_[0];
  for (std::size_t i = 0; i < recording_.steps.size(); ++i) {
    cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
    record_step(cmd, i);
    full_barrier(cmd);
    cmd.end();
    try {
      submit_and_wait(cmd, "a step");
    } catch (const Error& e) {
      throw Error(e.category(), "step " + std::to_string(i) + " (" +
                                    describe_step(recording_.steps[i]) + "): " + e.what());
    }
  }
}

void VulkanReplay::upload_input() {
  const VulkanBuffer keys = VulkanBuffer::staging(device_, case_.keys.bytes());
  std::memcpy(keys.mapped(), case_.keys.data(), case_.keys.bytes());
  std::optional<VulkanBuffer> values;
  if (case_.desc.pairs()) {
    values.emplace(VulkanBuffer::staging(device_, case_.values.bytes()));
    std::memcpy(values->mapped(), case_.values.data(), case_.values.bytes());
  }
  const vk::raii::CommandBuffer& cmd = commands_[0];
  cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
  for (unsigned s = 0; s < kSlots; ++s)
    if (slots_[s]) cmd.fillBuffer(slots_[s]->get(), 0, VK_WHOLE_SIZE, 0);
  full_barrier(cmd);
  cmd.copyBuffer(keys.get(), buffer(Slot::keys_in), vk::BufferCopy(0, 0, keys.bytes()));
  if (values)
    cmd.copyBuffer(values->get(), buffer(Slot::values_in), vk::BufferCopy(0, 0, values->bytes()));
  cmd.end();
  submit_and_wait(cmd, "the upload of the input");
}

void VulkanReplay::download(Slot slot, HostArray& to) const {
  const VulkanBuffer staging = VulkanBuffer::staging(device_, to.bytes());
  const vk::raii::CommandBuffer& cmd = commands_[0];
  cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
  cmd.copyBuffer(buffer(slot), staging.get(), vk::BufferCopy(0, 0, to.bytes()));
  cmd.end();
  submit_and_wait(cmd, "a download");
  std::memcpy(to.data(), staging.mapped(), to.bytes());
}

CallOutput VulkanReplay::read() {
  CallOutput out = empty_output(case_);
  download(Slot::keys_out, out.keys);
  if (case_.desc.pairs()) download(Slot::values_out, out.values);
  return out;
}

}  // namespace xr::onebin
