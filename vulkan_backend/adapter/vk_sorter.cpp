#include "vk_sorter.hpp"

#include <cstring>
#include <optional>
#include <tuple>

#include "vk_array.hpp"
#include "vk_program.hpp"
#include "xreduce/device_variant.hpp"
#include "xreduce/recent_cache.hpp"
#include "xreduce/sort_fallbacks.hpp"
#include "xreduce/vulkan/sort.hpp"

namespace xr::vulkan {
namespace {

// The library's Sort of one call's description and its scratch, zeroed once: a new one only when
// the description changes.
struct SortWorkspace {
  SortWorkspace(Device& device, const SortDesc& desc)
      : desc(desc),
        sort(device.context(), desc),
        scratch(device, sort.scratch_size(), kStorageUsage, MemoryKind::device_local) {
    device.run_once([&](const vk::raii::CommandBuffer& cmd) {
      sort.record_scratch_init(*cmd, scratch.handle());
    });
  }
  SortDesc desc;
  Sort sort;
  Buffer scratch;
};

// The serials of a call's arrays: a program per set.
using ArraysKey = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t>;

class VulkanSorter final : public DeviceSorter {
 public:
  VulkanSorter(std::shared_ptr<Device> device, const SortSpec& spec)
      : DeviceSorter(Variants::info(Primitive::sort, spec.id()), "n = 0: nothing is dispatched"),
        device_(std::move(device)),
        spec_(spec) {}

  // How the radix sorts ranked their tiles (subgroup ballots or counting: the device's features
  // decide), and onesweep's fallbacks.
  std::string diagnostics() const override {
    std::string said;
    if (workspace_ && !workspace_->sort.ranking().empty())
      said = "ranks tiles by " + std::string(workspace_->sort.ranking());
    if (spec_.family == SortFamily::onesweep)
      said += (said.empty() ? "" : "; ") + fallbacks_.describe();
    return said;
  }

 private:
  void prepare(const SortArrays& a) override {
    device_array(a.keys, *device_);
    device_array(a.sorted_keys, *device_);
    if (a.values) device_array(*a.values, *device_);
    if (a.sorted_values) device_array(*a.sorted_values, *device_);
    device_->raise_validation();
    require_dtype(spec_.id(), a.keys.dtype(), spec_.needs, spec_.group_bytes, device_->facts());
  }
  Timing empty_timing() const override { return Timing{0, 0, device_->facts().timestamps()}; }

  Timing run(const SortArrays& arrays, const SortCall& call, int calls) override {
    SortWorkspace& w = workspace(arrays, call);
    Program& program = program_of(arrays, w);
    const Timing timing = program.run(calls);
    count_fallbacks(program, calls);
    device_->raise_validation();
    return timing;
  }
  std::vector<CompiledPass> compiled(const SortArrays& arrays, const SortCall& call) override {
    return workspace(arrays, call).sort.compiled();
  }

  SortWorkspace& workspace(const SortArrays& a, const SortCall& call) {
    const SortDesc desc = desc_of(a, call);
    if (!workspace_ || workspace_->desc != desc) {
      programs_.clear();  // they record over the old workspace's scratch
      workspace_.reset();
      workspace_.emplace(*device_, desc);
      fallbacks_.reset();  // diagnostics() counts per workspace
    }
    return *workspace_;
  }

  Program& program_of(const SortArrays& a, const SortWorkspace& w) {
    const auto& keys = device_array(a.keys, *device_);
    const auto& sorted = device_array(a.sorted_keys, *device_);
    const VulkanArray* values = a.values ? &device_array(*a.values, *device_) : nullptr;
    const VulkanArray* sorted_values =
        a.sorted_values ? &device_array(*a.sorted_values, *device_) : nullptr;
    const ArraysKey key{keys.serial(), sorted.serial(), values ? values->serial() : 0,
                        sorted_values ? sorted_values->serial() : 0};
    return programs_.get(key, [&] {
      std::optional<ReadBack> fallbacks;
      if (const auto at = w.sort.fallback_count_offset()) fallbacks = ReadBack{&w.scratch, *at, 8};
      const Operand none{};
      const Operand operands[] = {
          Operand::of(keys.buffer().handle()), Operand::of(sorted.buffer().handle()),
          values ? Operand::of(values->buffer().handle()) : none,
          sorted_values ? Operand::of(sorted_values->buffer().handle()) : none,
          Operand::of(w.scratch.handle())};
      return std::make_unique<Program>(
          *device_,
          [&w, operands](const vk::raii::CommandBuffer& cmd) {
            w.sort.record(*cmd, operands[0], operands[1], operands[2], operands[3], operands[4]);
          },
          fallbacks);
    });
  }

  // The scratch's running count of fallbacks, read back after the call.
  void count_fallbacks(const Program& program, int calls) {
    if (!program.read_back()) return;
    std::uint32_t total;
    std::memcpy(&total, program.read_back(), sizeof total);
    fallbacks_.add(total, workspace_->sort.tiles(), calls);
  }

  // Declared first, destroyed last: the programs hold command buffers of its pool.
  std::shared_ptr<Device> device_;
  SortSpec spec_;
  std::optional<SortWorkspace> workspace_;
  // After the workspace: destroyed first, they record over its scratch.
  RecentCache<ArraysKey, Program> programs_{kProgramsKept};
  SortFallbacks fallbacks_;
};

}  // namespace

std::unique_ptr<Sorter> make_sorter(std::shared_ptr<Device> device, const SortSpec& spec) {
  return std::make_unique<VulkanSorter>(std::move(device), spec);
}

}  // namespace xr::vulkan
