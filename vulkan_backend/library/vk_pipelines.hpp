// The compute pipelines of one logical device: the pipeline layouts every shader shares (three
// storage-buffer bindings and the push constants of shaders/params.glsl) and a pipeline per
// (module, specialization constants, layout), created on first use through a pipeline cache
// (the caller's, for the library). The library's layout has five bindings: reduces and scans use
// the first three, sorts all five (keys and values read and written, and their words). Thread-safe:
// the library's Scans and Reduces are made from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>
#include "vk_hpp.hpp"

#include "vk_device_facts.hpp"
#include "xreduce/pass_args.hpp"

namespace xr::vulkan {

// Pipeline variants differ in module and specialization constants (shaders/common.glsl).
struct PipelineKey {
  std::string module;                // an embedded SPIR-V module name (xreduce/spirv_modules.hpp)
  std::uint32_t workgroup = 256;     // specialization constant 0
  std::uint32_t unroll = 1;          // 1: vector loads in flight
  std::uint32_t backoff = 0;         // 2: the scan look-back's pause
  std::uint32_t op = 0;              // 3: the operator, core's Op as a number (0 sum, 1 min, 2 max)
  std::uint32_t mode = 0;            // 4: the scan look-back's window and polling mode
  std::uint32_t sort_mode = 0;       // 5: a sort's key kind and order (shaders/sort_common.glsl)
  std::uint32_t min_subgroup = 4;    // 6: the smallest subgroup the device may run (sort_tile.glsl)
  std::uint32_t shared_words = 1;    // 7: a histogram's shared counters (histogram_common.glsl)
  std::uint32_t histogram_mode = 0;  // 8: its integer path, aggregation and counters
  // The layout: the library's (bindings pushed, VK_KHR_push_descriptor, where the device has it
  // enabled), or allocated descriptor sets' (users' kernels, the probes: sets made once).
  bool descriptor_sets = false;
  auto operator<=>(const PipelineKey&) const = default;
};

// A pass's three operands by device address (the buffers' byte 0): the source, the destination
// and the pass's own scratch (shaders/params.glsl: src, dst, aux).
struct Operands {
  vk::DeviceAddress src = 0, dst = 0, aux = 0;
};

// The sizes of one pass, the part of every shader's push constants (shaders/params.glsl) that
// plans compute. Reduce shaders read n to groups; the scan shaders all of them.
// The push constants after the operands: core's pass arguments (shaders/params.glsl).
using PushConstants = PassArgs;

// The push constants as the shaders see them, byte for byte.
struct PushBlock {
  Operands operands;
  PushConstants sizes;
};
static_assert(offsetof(PushBlock, sizes) == 24 && offsetof(PushBlock, sizes.in_offset) == 32 &&
                  offsetof(PushBlock, sizes.limit) == 56,
              "PushBlock must match shaders/params.glsl");

// The library layout's bindings (reduce and scan bind the first three, the sorts all six: their
// five operands and the count at 5), and the push-constant
// range every layout declares: the larger of PushBlock and a sort's (vk_sort_plan.hpp), within
// the 128 bytes every device allows.
inline constexpr std::uint32_t kLibraryBindings = 6;
inline constexpr std::uint32_t kPushBytes = 128;
static_assert(sizeof(PushBlock) <= kPushBytes);

class Pipelines {
 public:
  // `cache`: the caller's pipeline cache (not owned), else one of its own. `capture_ir_dir`:
  // where each pipeline's internal representations are written as it is made (VulkanKnobs).
  Pipelines(const vk::raii::Device& device, const DeviceFacts& facts, VkPipelineCache cache = {},
            std::string capture_ir_dir = {});
  ~Pipelines();  // a borrowed cache is released, not destroyed
  Pipelines(const Pipelines&) = delete;
  Pipelines& operator=(const Pipelines&) = delete;
  // The library's layout: its set is pushed where facts.push_descriptors, else never bound (the
  // operands go by address).
  vk::PipelineLayout pushed_layout() const { return *pushed_.pipeline; }
  // The layout of allocated descriptor sets (PipelineKey::descriptor_sets).
  vk::PipelineLayout sets_layout() const { return *sets_.pipeline; }
  vk::DescriptorSetLayout set_layout() const { return *sets_.set; }
  // The pipeline of `key`, created on first use. Error(unavailable) if the module is neither
  // embedded (a build problem) nor added.
  vk::Pipeline get(const PipelineKey& key);
  // A module that is not embedded (a user's kernel), by `name`, with its entry point; a second
  // add of a name keeps the first.
  void add_module(const std::string& name, std::vector<std::uint32_t> words, std::string entry);

 private:
  struct Added {
    std::vector<std::uint32_t> words;
    std::string entry;
  };
  struct Entry {
    vk::raii::ShaderModule module{nullptr};
    vk::raii::Pipeline pipeline{nullptr};
  };
  struct Layout {
    vk::raii::DescriptorSetLayout set{nullptr};
    vk::raii::PipelineLayout pipeline{nullptr};
  };
  Layout make_layout(vk::DescriptorSetLayoutCreateFlags flags, std::uint32_t bindings) const;

  const vk::raii::Device& device_;
  const DeviceFacts& facts_;
  vk::raii::PipelineCache cache_{nullptr};
  bool borrowed_cache_ = false;
  std::string capture_ir_dir_;
  Layout pushed_, sets_;
  std::mutex mutex_;  // guards the maps
  std::map<PipelineKey, Entry> pipelines_;
  std::map<std::string, Added> added_;
};

}  // namespace xr::vulkan
