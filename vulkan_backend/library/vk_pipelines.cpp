#include "vk_pipelines.hpp"

#include <array>
#include <span>

#include "vk_check.hpp"
#include "vk_compiled.hpp"
#include "xreduce/error.hpp"
#include "xreduce/spirv_modules.hpp"

namespace xr::vulkan {

Pipelines::Pipelines(const vk::raii::Device& device, const DeviceFacts& facts,
                     VkPipelineCache cache, std::string capture_ir_dir)
    : device_(device),
      facts_(facts),
      borrowed_cache_(cache != VK_NULL_HANDLE),
      capture_ir_dir_(std::move(capture_ir_dir)) {
  cache_ = borrowed_cache_ ? vk::raii::PipelineCache(device, cache)
                           : XR_VK_CHECK(device.createPipelineCache(vk::PipelineCacheCreateInfo()));
  pushed_ =
      make_layout(facts.push_descriptors ? vk::DescriptorSetLayoutCreateFlagBits::ePushDescriptorKHR
                                         : vk::DescriptorSetLayoutCreateFlags{},
                  kLibraryBindings);
  sets_ = make_layout({}, 3);
}

Pipelines::~Pipelines() {
  if (borrowed_cache_) cache_.release();
}

// Storage-buffer bindings (the operands of the binding modules) and the push constants (with the
// operands' addresses, read by the address modules): shaders/common.glsl, sort_common.glsl.
Pipelines::Layout Pipelines::make_layout(vk::DescriptorSetLayoutCreateFlags flags,
                                         std::uint32_t count) const {
  std::vector<vk::DescriptorSetLayoutBinding> bindings(count);
  for (std::uint32_t b = 0; b < count; ++b)
    bindings[b] = vk::DescriptorSetLayoutBinding(b, vk::DescriptorType::eStorageBuffer, 1,
                                                 vk::ShaderStageFlagBits::eCompute);
  Layout layout;
  layout.set = XR_VK_CHECK(
      device_.createDescriptorSetLayout(vk::DescriptorSetLayoutCreateInfo(flags, bindings)));
  const vk::PushConstantRange push(vk::ShaderStageFlagBits::eCompute, 0, kPushBytes);
  const vk::DescriptorSetLayout set_layout = *layout.set;
  layout.pipeline =
      XR_VK_CHECK(device_.createPipelineLayout(vk::PipelineLayoutCreateInfo({}, set_layout, push)));
  return layout;
}

vk::Pipeline Pipelines::get(const PipelineKey& key) {
  const std::lock_guard lock(mutex_);
  auto it = pipelines_.find(key);
  if (it != pipelines_.end()) return *it->second.pipeline;
  std::span<const std::uint32_t> words;
  std::string entry_point = "main";
  if (const spirv::Module* module = spirv::find(key.module)) {
    words = module->words;
  } else if (auto added = added_.find(key.module); added != added_.end()) {
    words = added->second.words;
    entry_point = added->second.entry;
  } else {
    throw Error(ErrorCategory::unavailable,
                "SPIR-V module '" + key.module + "' is not embedded in this build");
  }
  Entry entry;
  entry.module = XR_VK_CHECK(
      device_.createShaderModule(vk::ShaderModuleCreateInfo({}, words.size_bytes(), words.data())));
  // Specialization constants: 0 = workgroup size, 1 = unroll factor, 2 = back-off, 3 = operator,
  // 4 = look-back mode, 5 = sort mode, 6 = smallest subgroup, 7 = a histogram's shared counters,
  // 8 = its mode (each ignored by shaders that do not declare it).
  const std::uint32_t values[] = {key.workgroup,    key.unroll,       key.backoff,
                                  key.op,           key.mode,         key.sort_mode,
                                  key.min_subgroup, key.shared_words, key.histogram_mode};
  const vk::SpecializationMapEntry entries[] = {{0, 0, 4},  {1, 4, 4},  {2, 8, 4},
                                                {3, 12, 4}, {4, 16, 4}, {5, 20, 4},
                                                {6, 24, 4}, {7, 28, 4}, {8, 32, 4}};
  vk::SpecializationInfo spec(entries, vk::ArrayProxyNoTemporaries<const std::uint32_t>(values));
  vk::PipelineShaderStageCreateFlags stage_flags;
  // Subgroup shaders index shared memory by lane and need every subgroup full.
  if (facts_.full_subgroups && key.workgroup % facts_.max_subgroup_size == 0)
    stage_flags |= vk::PipelineShaderStageCreateFlagBits::eRequireFullSubgroups;
  vk::PipelineShaderStageCreateInfo stage(stage_flags, vk::ShaderStageFlagBits::eCompute,
                                          *entry.module, entry_point.c_str(), &spec);
  // Statistics kept where the device enabled them: the same code, its resources readable.
  vk::PipelineCreateFlags flags;
  const bool capture_ir = facts_.executable_statistics && !capture_ir_dir_.empty();
  if (facts_.executable_statistics) flags |= vk::PipelineCreateFlagBits::eCaptureStatisticsKHR;
  if (capture_ir) flags |= vk::PipelineCreateFlagBits::eCaptureInternalRepresentationsKHR;
  entry.pipeline = XR_VK_CHECK(device_.createComputePipeline(
      cache_, vk::ComputePipelineCreateInfo(
                  flags, stage, key.descriptor_sets ? sets_layout() : pushed_layout())));
  if (capture_ir) {
    std::string stem = key.module + "-wg" + std::to_string(key.workgroup) + "-op" +
                       std::to_string(key.op) + "-u" + std::to_string(key.unroll) + "-m" +
                       std::to_string(key.mode) + "-s" + std::to_string(key.sort_mode);
    if (key.module.starts_with("histogram"))
      stem += "-h" + std::to_string(key.histogram_mode) + "-w" + std::to_string(key.shared_words);
    write_internal_representations(device_, *entry.pipeline, capture_ir_dir_, stem);
  }
  return *pipelines_.emplace(key, std::move(entry)).first->second.pipeline;
}

void Pipelines::add_module(const std::string& name, std::vector<std::uint32_t> words,
                           std::string entry) {
  const std::lock_guard lock(mutex_);
  added_.try_emplace(name, Added{std::move(words), std::move(entry)});
}

}  // namespace xr::vulkan
