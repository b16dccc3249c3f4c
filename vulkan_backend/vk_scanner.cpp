#include "vk_scanner.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <tuple>

#include "vk_array.hpp"
#include "vk_program.hpp"
#include "vk_requirements.hpp"
#include "vk_scan_plan.hpp"
#include "xreduce/call_check.hpp"

namespace xr::vulkan {
namespace {

// The look-back's tile is its policy's (a knob may change it): what the device must run.
ScanSpec effective_spec(ScanSpec spec, const LookBackPolicy& policy) {
  if (spec.family == ScanFamily::look_back) {
    spec.workgroup = std::max(
        {policy.four.shape.workgroup, policy.two.shape.workgroup, policy.eight.shape.workgroup});
    spec.items = policy.four.shape.vectors;
    spec.shared_bytes = spec.workgroup * 4 + 16;
  }
  return spec;
}

// What one (n, dtype, op) keeps: its plan and zeroed scratch, shared by its programs.
struct ScanWorkspace {
  ScanWorkspace(Device& device, const ScanSpec& spec, std::uint64_t n, DType t, Op op,
                const LookBackPolicy& lookback)
      : n(n),
        dtype(t),
        op(op),
        plan(plan_scan(spec, device.facts(), n, t, lookback)),
        scratch(device, plan.scratch_bytes, kStorageUsage, MemoryKind::device_local) {
    // The look-back's status words start "never written" (epoch 0), its counters at 0.
    device.run_once([&](const vk::raii::CommandBuffer& cmd) {
      cmd.fillBuffer(scratch.handle(), 0, VK_WHOLE_SIZE, 0);
    });
  }
  bool matches(std::uint64_t m, DType t, Op o) const { return n == m && dtype == t && op == o; }

  std::uint64_t n;
  DType dtype;
  Op op;
  ScanPlan plan;
  Buffer scratch;
};

// The program of one (input, output, kind) over a workspace's plan and scratch.
std::unique_ptr<Program> record_scan(Device& device, const ScanWorkspace& w, const VulkanArray& in,
                                     const VulkanArray& out, ScanKind kind) {
  std::vector<ProgramPass> passes;
  for (const ScanPass& p : w.plan.passes) {
    PushConstants push = p.push;
    if (p.takes_kind && kind == ScanKind::exclusive) push.flags |= kExclusiveFlag;
    passes.push_back({.shader = p.shader,
                      // Passes over scratch alone (the tiled scans' upper levels) scan
                      // accumulators.
                      .dtype = p.operands == scratch_operands ? accumulator_of(w.dtype) : w.dtype,
                      .workgroup = p.workgroup,
                      .unroll = p.unroll,
                      .backoff = p.backoff,
                      .mode = p.mode,
                      .operands = p.operands,
                      .push = push,
                      .grid = p.grid});
  }
  const OperandBuffers sets[kScanOperandSets] = {{&in.buffer(), &out.buffer(), &w.scratch},
                                                 {&w.scratch, &w.scratch, &w.scratch},
                                                 {&in.buffer(), &w.scratch, &w.scratch}};
  std::optional<ReadBack> fallbacks;  // the look-back's count, after the timing
  if (w.plan.fallbacks_at) fallbacks = ReadBack{&w.scratch, *w.plan.fallbacks_at, 8};
  return std::make_unique<Program>(
      device, std::move(passes), sets,
      addressing_for(device, in.size(),
                     {in.buffer().size(), out.buffer().size(), w.scratch.size()}),
      w.op, fallbacks);
}

class VulkanScanner final : public Scanner {
 public:
  VulkanScanner(std::shared_ptr<Device> device, const ScanSpec& spec)
      : device_(std::move(device)),
        lookback_(lookback_policy(device_->knobs())),
        spec_(effective_spec(spec, lookback_)),
        info_(scan_info(spec)) {}

  const VariantInfo& info() const override { return info_; }
  Timing scan(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind) override {
    return run(input, output, op, kind, 1);
  }
  Timing scan_batch(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind,
                    int calls) override {
    return run(input, output, op, kind, calls);
  }

  std::string diagnostics() const override {
    if (spec_.family != ScanFamily::look_back) return {};
    return "look-back fallbacks: " + std::to_string(fallbacks_) + " of " + std::to_string(tiles_) +
           " tiles over " + std::to_string(calls_) + " calls reduced a predecessor's input (" +
           std::to_string(lookback_.polls) + " polls before falling back, window " +
           std::to_string(lookback_.window) + " words per lane)";
  }

 private:
  Timing run(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind, int calls) {
    check_scan_call(info_, input, output, op, kind, calls);
    auto& in = device_array(input, *device_);
    auto& out = device_array(output, *device_);
    device_->raise_validation();
    require_dtype(info_.id, in.dtype(), spec_.needs, spec_.shared_bytes, device_->facts());
    if (in.size() == 0) return Timing{0, 0, device_->facts().timestamps()};
    ScanWorkspace& w = workspace(in.dtype(), op, in.size());
    Program& program = programs_.get({in.serial(), out.serial(), kind},
                                     [&] { return record_scan(*device_, w, in, out, kind); });
    const Timing timing = program.run(calls);
    count_fallbacks(program, calls);
    device_->raise_validation();
    return timing;
  }

  // The plan and zeroed scratch of (n, dtype, op), made again (with new programs) when it changes.
  ScanWorkspace& workspace(DType t, Op op, std::uint64_t n) {
    if (!workspace_ || !workspace_->matches(n, t, op)) {
      programs_.clear();
      workspace_.reset();
      workspace_.emplace(*device_, spec_, n, t, op, lookback_);
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
    tiles_ += workspace_->plan.tiles * static_cast<std::uint64_t>(calls);
  }

  // Declared first, destroyed last: the programs hold command buffers of its pool.
  std::shared_ptr<Device> device_;
  LookBackPolicy lookback_;
  ScanSpec spec_;
  VariantInfo info_;
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
