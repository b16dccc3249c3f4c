#include "vk_histogrammer.hpp"

#include <optional>
#include <tuple>

#include "vk_array.hpp"
#include "vk_program.hpp"
#include "xreduce/device_variant.hpp"
#include "xreduce/recent_cache.hpp"
#include "xreduce/vulkan/histogram.hpp"

namespace xr::vulkan {
namespace {

// The serials of a call's samples and counts and whether its count is on the device: a program
// per set.
using CountsKey = std::tuple<std::uint64_t, std::uint64_t, bool>;

// Every call runs (n = 0 zeroes the counts): a program per set of arrays over the workspace's
// scratch, each call overwriting the counts.
class VulkanHistogrammer final : public DeviceHistogrammer {
 public:
  VulkanHistogrammer(std::shared_ptr<Device> device, std::string_view id)
      : DeviceHistogrammer(Variants::info(Primitive::histogram, id)), device_(std::move(device)) {}

  // The plan in words: where the bins are counted (shared memory, or global memory past it),
  // subgroup/aggregated's match (partition or ballots), the samples by binding or by address.
  std::string diagnostics() const override {
    return workspace_ ? workspace_->histogram.describe() : std::string();
  }

 private:
  struct Workspace {
    HistogramDesc desc;
    Histogram histogram;
    Buffer scratch;
    std::optional<Buffer> count;  // desc.count in a device word, for the indirect calls
  };

  // Every array is this device's, and the workspace is made, n = 0 included: the library's
  // Histogram refuses what the device cannot run.
  void prepare(const HistogramRequest& r) override {
    device_->raise_validation();
    device_array(r.samples(), *device_);
    device_array(r.counts(), *device_);
    workspace(r);
  }

  Timing run(const HistogramRequest& request, int calls) override {
    Program& program = program_of(request, workspace(request));
    const Timing timing = program.run(calls);
    device_->raise_validation();
    return timing;
  }

  std::vector<CompiledPass> compiled(const HistogramRequest& request) override {
    return workspace(request).histogram.diagnostics().compiled();
  }
  std::string tuning(const HistogramRequest& request) override {
    return std::string(workspace(request).histogram.diagnostics().tuning());
  }

  // The workspace of the request's description: a new one only where the description changes.
  // Its scratch needs no zeroing (every call zeroes what it reads).
  Workspace& workspace(const HistogramRequest& request) {
    const HistogramDesc& desc = request.desc();
    if (!workspace_ || workspace_->desc != desc) {
      programs_.clear();  // they record over the old workspace's scratch
      workspace_.reset();
      Histogram histogram(device_->context(), desc);
      Buffer scratch(*device_, histogram.scratch_size(), kStorageUsage, MemoryKind::device_local);
      workspace_.emplace(Workspace{desc, std::move(histogram), std::move(scratch), std::nullopt});
    }
    if (request.count_on_device() && !workspace_->count)
      workspace_->count.emplace(count_word(static_cast<std::uint32_t>(desc.count)));
    return *workspace_;
  }

  Buffer count_word(std::uint32_t count) {
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

  Program& program_of(const HistogramRequest& r, const Workspace& w) {
    const auto& samples = device_array(r.samples(), *device_);
    const auto& counts = device_array(r.counts(), *device_);
    const bool counted = r.count_on_device();
    const CountsKey key{samples.serial(), counts.serial(), counted};
    return programs_.get(key, [&] {
      const Operand operands[] = {
          Operand::of(samples.buffer().handle()), Operand::of(counts.buffer().handle()),
          Operand::of(w.scratch.handle()), counted ? Operand::of(w.count->handle()) : Operand{}};
      return std::make_unique<Program>(
          *device_,
          [&w, operands, counted](const vk::raii::CommandBuffer& cmd) {
            if (counted)
              w.histogram.record_indirect(*cmd, operands[3], operands[0], operands[1], operands[2]);
            else
              w.histogram.record(*cmd, operands[0], operands[1], operands[2]);
          },
          std::nullopt);
    });
  }

  // Declared first, destroyed last: the workspace and the programs use the device.
  std::shared_ptr<Device> device_;
  std::optional<Workspace> workspace_;
  // Destroyed before the workspace: they record over its scratch with command buffers of the
  // device's pool.
  RecentCache<CountsKey, Program> programs_{kProgramsKept};
};

}  // namespace

std::unique_ptr<Histogrammer> make_histogrammer(std::shared_ptr<Device> device,
                                                std::string_view id) {
  return std::make_unique<VulkanHistogrammer>(std::move(device), id);
}

}  // namespace xr::vulkan
