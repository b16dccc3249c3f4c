#include "vk_scanner.hpp"

#include <cstring>
#include <optional>
#include <tuple>

#include "vk_array.hpp"
#include "vk_internal.hpp"
#include "vk_program.hpp"
#include "xreduce/device_variant.hpp"
#include "xreduce/vulkan/scan.hpp"

namespace xr::vulkan {
namespace {

// What one (n, dtype, op) keeps: the library's Scan and its scratch, zeroed once (the
// look-back's status words start "never written", epoch 0, its counters at 0), shared by its
// programs.
struct ScanWorkspace {
  ScanWorkspace(Device& device, const ScanSpec& spec, std::uint64_t n, DType t, Op op)
      : n(n),
        dtype(t),
        op(op),
        scan(device.context(), {.dtype = t,
                                .op = op,
                                .count = n,
                                .variant = std::string(spec.id()),
                                .operands = OperandKind::buffers}),
        scratch(device, scan.scratch_size(), kStorageUsage, MemoryKind::device_local) {
    device.run_once([&](const vk::raii::CommandBuffer& cmd) {
      scan.record_scratch_init(*cmd, scratch.handle());
    });
  }
  bool matches(std::uint64_t m, DType t, Op o) const { return n == m && dtype == t && op == o; }

  std::uint64_t n;
  DType dtype;
  Op op;
  Scan scan;
  Buffer scratch;
};

// The program of one (input, output, kind): the library's recording of the scan, and the
// look-back's fallback count read back after the timing.
std::unique_ptr<Program> record_scan(Device& device, const ScanWorkspace& w, const VulkanArray& in,
                                     const VulkanArray& out, ScanKind kind) {
  std::optional<ReadBack> fallbacks;
  if (const auto at = w.scan.fallback_count_offset()) fallbacks = ReadBack{&w.scratch, *at, 8};
  const Operand operands[] = {Operand::of(in.buffer().handle()), Operand::of(out.buffer().handle()),
                              Operand::of(w.scratch.handle())};
  return std::make_unique<Program>(
      device,
      [&w, kind, operands](const vk::raii::CommandBuffer& cmd) {
        w.scan.record(*cmd, kind, operands[0], operands[1], operands[2]);
      },
      fallbacks);
}

class VulkanScanner final : public DeviceScanner {
 public:
  VulkanScanner(std::shared_ptr<Device> device, const ScanSpec& spec)
      : DeviceScanner(Variants::info(Primitive::scan, spec.id()), "n = 0: nothing is dispatched"),
        device_(std::move(device)),
        lookback_(state_of(device_->context()).lookback),  // the library's, from the same knobs
        spec_(effective_spec(spec, lookback_)) {}

  std::string diagnostics() const override {
    if (spec_.schedule.family != ScanFamily::look_back) return {};
    return "look-back fallbacks: " + std::to_string(fallbacks_) + " of " + std::to_string(tiles_) +
           " tiles over " + std::to_string(calls_) + " calls reduced a predecessor's input (" +
           std::to_string(lookback_.polls) + " polls before falling back, window " +
           std::to_string(lookback_.window) + " words per lane)";
  }

 private:
  void prepare(DeviceArray& input, DeviceArray& output) override {
    device_array(input, *device_);
    device_array(output, *device_);
    device_->raise_validation();
    require_dtype(info().id, input.dtype(), spec_.needs, spec_.group_bytes, device_->facts());
  }
  Timing empty_timing() const override { return Timing{0, 0, device_->facts().timestamps()}; }

  Timing run(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind, int calls) override {
    auto& in = device_array(input, *device_);
    auto& out = device_array(output, *device_);
    ScanWorkspace& w = workspace(in.dtype(), op, in.size());
    Program& program = programs_.get({in.serial(), out.serial(), kind},
                                     [&] { return record_scan(*device_, w, in, out, kind); });
    const Timing timing = program.run(calls);
    count_fallbacks(program, calls);
    device_->raise_validation();
    return timing;
  }
  std::vector<CompiledPass> compiled(DeviceArray& input, DeviceArray&, Op op, ScanKind) override {
    return workspace(input.dtype(), op, input.size()).scan.compiled();
  }

  // The Scan and zeroed scratch of (n, dtype, op), made again (with new programs) when it
  // changes.
  ScanWorkspace& workspace(DType t, Op op, std::uint64_t n) {
    if (!workspace_ || !workspace_->matches(n, t, op)) {
      programs_.clear();
      workspace_.reset();
      workspace_.emplace(*device_, spec_, n, t, op);
      calls_ = tiles_ = fallbacks_ = fallbacks_seen_ = 0;  // diagnostics() counts per workspace
    }
    return *workspace_;
  }

  // The scratch's running count of fallbacks, read back after the call.
  void count_fallbacks(const Program& program, int calls) {
    calls_ += static_cast<std::uint64_t>(calls);
    if (!program.read_back()) return;
    std::uint64_t total;
    std::memcpy(&total, program.read_back(), sizeof total);
    fallbacks_ += total - fallbacks_seen_;
    fallbacks_seen_ = total;
    tiles_ += workspace_->scan.tiles() * static_cast<std::uint64_t>(calls);
  }

  // Declared first, destroyed last: the programs hold command buffers of its pool.
  std::shared_ptr<Device> device_;
  LookBackPolicy lookback_;
  ScanSpec spec_;
  std::optional<ScanWorkspace> workspace_;
  // After the workspace: destroyed first, they record over its scratch.
  RecentCache<std::tuple<std::uint64_t, std::uint64_t, ScanKind>, Program> programs_{kProgramsKept};
  std::uint64_t calls_ = 0, tiles_ = 0, fallbacks_ = 0, fallbacks_seen_ = 0;
};

}  // namespace

std::unique_ptr<Scanner> make_scanner(std::shared_ptr<Device> device, const ScanSpec& spec) {
  return std::make_unique<VulkanScanner>(std::move(device), spec);
}

}  // namespace xr::vulkan
