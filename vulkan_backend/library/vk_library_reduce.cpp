// xreduce/vulkan/reduce.hpp: a reduce variant's plan (core's, with Vulkan's grids:
// vk_reduce_plan) as a Recording over the caller's operands.
#include <optional>

#include "vk_context.hpp"
#include "vk_recording.hpp"
#include "vk_reduce_plan.hpp"
#include "vk_requirements.hpp"
#include "xreduce/error.hpp"
#include "xreduce/vulkan/reduce.hpp"

namespace xr::vulkan {
namespace {

// The spec of `id`, or the library's choice: the first in its order the device can run over t.
const ReduceSpec& choose_reduce(const Context& context, const std::string& id, DType t) {
  ContextState& c = state_of(context);
  if (id.empty()) {
    const std::vector<std::string> runnable = context.variants(Primitive::reduce, t);
    if (runnable.empty())
      throw Error(ErrorCategory::unsupported, "xreduce::vulkan: " + c.facts.info.name +
                                                  " runs no reduce over " +
                                                  std::string(to_string(t)));
    return *find_reduce(runnable.front());
  }
  const ReduceSpec* spec = find_reduce(id);
  if (!spec) throw Error(ErrorCategory::usage, "xreduce::vulkan: no reduce variant '" + id + "'");
  if (const std::string why =
          variant_unsupported_reason(Primitive::reduce, id, c.facts, c.lookback);
      !why.empty())
    throw Error(ErrorCategory::unsupported,
                "xreduce::vulkan: " + id + " cannot run on " + c.facts.info.name + ": " + why);
  require_dtype(spec->id(), t, spec->needs, reduce_group_memory_bytes(spec->schedule), c.facts);
  return *spec;
}

}  // namespace

struct Reduce::State {
  std::string variant;
  DType accumulator = DType::i32;
  ReduceDispatches plan;
  std::optional<Recording> recording;
};

Reduce::Reduce(const Context& context, const ReduceDesc& desc) : state_(make_state<State>()) {
  if (desc.count == 0)
    throw Error(ErrorCategory::usage,
                "xreduce::vulkan: a reduce of 0 elements has no dispatch: its result is the "
                "operator's identity");
  ContextState& c = state_of(context);
  const ReduceSpec& spec = choose_reduce(context, desc.variant, desc.dtype);
  State& s = *state_;
  s.variant = spec.id();
  s.accumulator = accumulator_of(desc.dtype);
  const std::size_t acc_bytes = size_of(s.accumulator);
  s.plan = reduce_dispatches(spec, c.facts, desc.count, acc_bytes);
  s.recording.emplace(c, "Reduce::record", desc.operands, desc.count,
                      std::array<vk::DeviceSize, kRoles>{desc.count * size_of(desc.dtype),
                                                         acc_bytes, s.plan.scratch_bytes});
  const Addressing addressing = s.recording->addressing();
  for (const ReduceDispatch& d : s.plan.passes) {
    // Partials and the result are accumulators: the later passes run the accumulator's module.
    const DType t = d.pass.from_input ? desc.dtype : s.accumulator;
    const std::string module = module_name(spec.program, t, addressing);
    s.recording->add({.pipeline = c.pipelines->get({.module = module,
                                                    .workgroup = spec.schedule.threads,
                                                    .unroll = spec.schedule.unroll,
                                                    .op = op_constant(desc.op)}),
                      .module = module,
                      .workgroup = spec.schedule.threads,
                      .roles = d.pass.buffers(),
                      .push = d.pass.args,
                      .grid = d.grid});
  }
}

VkDeviceSize Reduce::scratch_size() const {
  return state_->plan.scratch_bytes;
}

std::vector<CompiledPass> Reduce::compiled() const {
  return state_->recording->compiled();
}

const std::string& Reduce::variant() const {
  return state_->variant;
}

DType Reduce::result_dtype() const {
  return state_->accumulator;
}

void Reduce::record_scratch_init(VkCommandBuffer cmd, VkBuffer scratch, VkDeviceSize offset) const {
  record_zero_fill(state_->recording->context(), "Reduce::record_scratch_init", cmd, scratch,
                   offset, scratch_size());
}

void Reduce::record(VkCommandBuffer cmd, const Operand& in, const Operand& out,
                    const Operand& scratch) const {
  state_->recording->record(cmd, {in, out, scratch}, 0);
}

}  // namespace xr::vulkan
