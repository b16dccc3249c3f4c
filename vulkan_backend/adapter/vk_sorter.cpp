#include "vk_sorter.hpp"

#include <cstring>
#include <optional>
#include <tuple>

#include "vk_array.hpp"
#include "vk_program.hpp"
#include "xreduce/recent_cache.hpp"
#include "xreduce/vulkan/sort.hpp"
#include "xreduce/workspace_sorter.hpp"

namespace xr::vulkan {
namespace {

// The serials of a call's arrays and whether its count is on the device: a program per set.
using ArraysKey = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t, bool>;

// Records a program per set of arrays over the workspace's scratch, and resubmits it.
class VulkanSorter final : public WorkspaceSorter<Device, Sort, Buffer> {
 public:
  VulkanSorter(std::shared_ptr<Device> device, std::string_view id)
      : WorkspaceSorter(Variants::info(Primitive::sort, id), "n = 0: nothing is dispatched",
                        std::move(device)) {}

  // How the radix sorts ranked their tiles (subgroup ballots or counting: the device's features
  // decide), and onesweep's fallbacks.
  std::string diagnostics() const override {
    std::string said;
    if (workspace_ && !workspace_->sort.diagnostics().ranking().empty())
      said = "ranks tiles by " + std::string(workspace_->sort.diagnostics().ranking());
    if (const std::string fallbacks = WorkspaceSorter::diagnostics(); !fallbacks.empty())
      said += (said.empty() ? "" : "; ") + fallbacks;
    return said;
  }

 private:
  Sort make_sort(const SortDesc& desc) override { return Sort(device_->context(), desc); }
  Buffer zeroed_scratch(const Sort& sort) override {
    Buffer scratch(*device_, sort.scratch_size(), kStorageUsage, MemoryKind::device_local);
    device_->run_once([&](const vk::raii::CommandBuffer& cmd) {
      sort.record_scratch_init(*cmd, scratch.handle());
    });
    return scratch;
  }
  Buffer count_word(std::uint32_t count) override {
    Buffer word(*device_, sizeof count, kStorageUsage, MemoryKind::device_local);
    device_->run_once([&](const vk::raii::CommandBuffer& cmd) {
      cmd.fillBuffer(word.handle(), 0, sizeof count, count);
      cmd.pipelineBarrier(
          vk::PipelineStageFlagBits::eTransfer, vk::PipelineStageFlagBits::eComputeShader, {},
          vk::MemoryBarrier(vk::AccessFlagBits::eTransferWrite, vk::AccessFlagBits::eShaderRead),
          {}, {});
    });
    return word;
  }
  // The programs record over the old workspace's scratch.
  void workspace_replaced() override { programs_.clear(); }

  void prepare(const SortRequest& request) override {
    device_->raise_validation();
    WorkspaceSorter::prepare(request);
  }
  Timing empty_timing() const override { return Timing{0, 0, device_->facts().timestamps()}; }

  Timing run(const SortRequest& request, int calls) override {
    Workspace& w = workspace(request);
    Program& program = program_of(request, w);
    const Timing timing = program.run(calls);
    count_fallbacks(program, calls);
    device_->raise_validation();
    return timing;
  }
  Program& program_of(const SortRequest& r, const Workspace& w) {
    const auto& keys = device_array(r.keys(), *device_);
    const auto& sorted = device_array(r.sorted_keys(), *device_);
    const VulkanArray* values = r.values() ? &device_array(*r.values(), *device_) : nullptr;
    const VulkanArray* sorted_values =
        r.sorted_values() ? &device_array(*r.sorted_values(), *device_) : nullptr;
    const bool counted = r.count_on_device();
    const ArraysKey key{keys.serial(), sorted.serial(), values ? values->serial() : 0,
                        sorted_values ? sorted_values->serial() : 0, counted};
    return programs_.get(key, [&] {
      std::optional<ReadBack> fallbacks;
      if (const auto at = w.sort.diagnostics().fallback_count_offset())
        fallbacks = ReadBack{&w.scratch, *at, 8};
      const Operand none{};
      const Operand operands[] = {
          Operand::of(keys.buffer().handle()),
          Operand::of(sorted.buffer().handle()),
          values ? Operand::of(values->buffer().handle()) : none,
          sorted_values ? Operand::of(sorted_values->buffer().handle()) : none,
          Operand::of(w.scratch.handle()),
          counted ? Operand::of(w.count->handle()) : none};
      return std::make_unique<Program>(
          *device_,
          [&w, operands, counted](const vk::raii::CommandBuffer& cmd) {
            if (counted)
              w.sort.record_indirect(*cmd, operands[5], operands[0], operands[1], operands[2],
                                     operands[3], operands[4]);
            else
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
    fallbacks_.add(total, workspace_->sort.diagnostics().tiles(), calls);
  }

  // Destroyed before the base's workspace and device: they record over its scratch with command
  // buffers of the device's pool.
  RecentCache<ArraysKey, Program> programs_{kProgramsKept};
};

}  // namespace

std::unique_ptr<Sorter> make_sorter(std::shared_ptr<Device> device, std::string_view id) {
  return std::make_unique<VulkanSorter>(std::move(device), id);
}

}  // namespace xr::vulkan
