// xreduce/vulkan/scan.hpp: a scan variant's plan (core's, translated: vk_scan_plan) as a
// Recording over the caller's operands.
#include <optional>

#include "vk_context.hpp"
#include "vk_recording.hpp"
#include "vk_requirements.hpp"
#include "vk_scan_plan.hpp"
#include "xreduce/error.hpp"
#include "xreduce/vulkan/scan.hpp"

namespace xr::vulkan {
namespace {

// The spec of `id` as the device runs it, or the library's choice: the first in its order the
// device can run over `t`.
ScanSpec choose_scan(const Context& context, const std::string& id, DType t) {
  ContextState& c = state_of(context);
  if (id.empty()) {
    const std::vector<std::string> runnable = context.variants(Primitive::scan, t);
    if (runnable.empty())
      throw Error(ErrorCategory::unsupported, "xreduce::vulkan: " + c.facts.info.name +
                                                  " runs no scan over " +
                                                  std::string(to_string(t)));
    return effective_spec(*find_scan(runnable.front()), c.lookback);
  }
  const ScanSpec* spec = find_scan(id);
  if (!spec) throw Error(ErrorCategory::usage, "xreduce::vulkan: no scan variant '" + id + "'");
  const ScanSpec effective = effective_spec(*spec, c.lookback);
  if (const std::string why = variant_unsupported_reason(Primitive::scan, id, c.facts, c.lookback);
      !why.empty())
    throw Error(ErrorCategory::unsupported,
                "xreduce::vulkan: " + id + " cannot run on " + c.facts.info.name + ": " + why);
  require_dtype(effective.id(), t, effective.needs, effective.group_bytes, c.facts);
  return effective;
}

}  // namespace

struct Scan::State {
  std::string variant;
  ScanDispatches plan;
  std::optional<Recording> recording;
};

Scan::Scan(const Context& context, const ScanDesc& desc) : state_(make_state<State>()) {
  ContextState& c = state_of(context);
  const ScanSpec spec = choose_scan(context, desc.variant, desc.dtype);
  state_->variant = spec.id();
  const std::uint64_t n = desc.count;
  if (n > 0) state_->plan = scan_dispatches(spec, c.facts, n, desc.dtype, c.lookback);
  const vk::DeviceSize elements = n * size_of(desc.dtype);
  state_->recording.emplace(
      c, "Scan::record", desc.operands, n,
      std::array<vk::DeviceSize, kRoles>{elements, elements, state_->plan.scratch_bytes});
  const Addressing addressing = state_->recording->addressing();
  for (const ScanDispatch& p : state_->plan.passes) {
    const DType t = p.reads_accumulators ? accumulator_of(desc.dtype) : desc.dtype;
    const std::string module = module_name(p.shader, t, addressing);
    state_->recording->add({.pipeline = c.pipelines->get({.module = module,
                                                          .workgroup = p.workgroup,
                                                          .unroll = p.unroll,
                                                          .backoff = p.backoff,
                                                          .op = op_constant(desc.op),
                                                          .mode = p.mode}),
                            .module = module,
                            .workgroup = p.workgroup,
                            .roles = p.roles,
                            .push = p.push,
                            .grid = p.grid,
                            .takes_kind = p.takes_kind});
  }
}

VkDeviceSize Scan::scratch_size() const {
  return state_->plan.scratch_bytes;
}

const std::string& Scan::variant() const {
  return state_->variant;
}

void Scan::record_scratch_init(VkCommandBuffer cmd, VkBuffer scratch, VkDeviceSize offset) const {
  record_zero_fill(state_->recording->context(), "Scan::record_scratch_init", cmd, scratch, offset,
                   scratch_size());
}

void Scan::record(VkCommandBuffer cmd, ScanKind kind, const Operand& in, const Operand& out,
                  const Operand& scratch) const {
  state_->recording->record(cmd, {in, out, scratch},
                            kind == ScanKind::exclusive ? kScanExclusive : 0u);
}

std::vector<CompiledPass> Scan::compiled() const {
  return state_->recording->compiled();
}

std::optional<VkDeviceSize> Scan::fallback_count_offset() const {
  return state_->plan.fallbacks_at;
}

std::uint64_t Scan::tiles() const {
  return state_->plan.tiles;
}

}  // namespace xr::vulkan
