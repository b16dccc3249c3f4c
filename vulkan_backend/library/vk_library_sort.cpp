// xreduce/vulkan/sort.hpp: a sort variant's plan (core's, translated: vk_sort_plan) recorded over
// the caller's five operands, the alternates bound inside its scratch.
#include <algorithm>
#include <array>
#include <optional>
#include <span>

#include "vk_compiled.hpp"
#include "vk_context.hpp"
#include "vk_operands.hpp"
#include "vk_recording.hpp"
#include "vk_sort_plan.hpp"
#include "xreduce/error.hpp"
#include "xreduce/vulkan/sort.hpp"

namespace xr::vulkan {
namespace {

static_assert(sort::kBindings <= kLibraryBindings, "a sort's bindings are the library layout's");
static_assert(sizeof(sort::AddressPush) <= kPushBytes, "a sort's push constants are the layout's");

// Polls of an unpublished predecessor before a workgroup counts its digits itself, unless the
// tool's XR_VK_LOOKBACK_POLLS says (0: at once, the forced fallback of the tests): long enough
// that a running predecessor is waited for, short enough that a stalled one is not for long.
constexpr std::uint32_t kLookBackPolls = 64;

// The caller's operands, in this order, then the scratch.
enum Caller : std::size_t { keys_in, keys_out, values_in, values_out, scratch, kCallers };

// The spec of `id` as the device runs it, or the library's choice: the first in its order the
// device can run over `t`.
const sort::Spec& choose_sort(const Context& context, const std::string& id, DType t) {
  ContextState& c = state_of(context);
  const sort::Spec* spec = id.empty() ? nullptr : find_sort(id);
  if (!id.empty() && !spec)
    throw Error(ErrorCategory::usage, "xreduce::vulkan: no sort variant '" + id + "'");
  if (!c.facts.push_descriptors)
    throw Error(ErrorCategory::unsupported,
                "xreduce::vulkan: the sorts bind their operands by push descriptor, and " +
                    c.facts.info.name + " was made without VK_KHR_push_descriptor: enable it " +
                    "in the VkDeviceCreateInfo the Context is given");
  if (id.empty()) {
    const std::vector<std::string> runnable = context.variants(Primitive::sort, t);
    if (runnable.empty())
      throw Error(ErrorCategory::unsupported, "xreduce::vulkan: " + c.facts.info.name +
                                                  " runs no sort over " +
                                                  std::string(to_string(t)));
    return *find_sort(runnable.front());
  }
  if (const std::string why = variant_unsupported_reason(Primitive::sort, id, c.facts, c.lookback);
      !why.empty())
    throw Error(ErrorCategory::unsupported,
                "xreduce::vulkan: " + id + " cannot run on " + c.facts.info.name + ": " + why);
  require_dtype(spec->id(), t, spec->needs, spec->group_bytes, c.facts);
  return *spec;
}

// The look-back's patience and the tool's forcings, from the context's knobs.
sort::Knobs sort_knobs(const ContextState& c) {
  return {.polls = c.knobs.lookback_polls.value_or(kLookBackPolls),
          .tile = c.knobs.sort_tile,
          .force_address = c.knobs.force_address,
          .force_counting = c.knobs.force_counting,
          .device_grids = c.knobs.sort_device_grids};
}

// Sort::scratch_size(): the plan's, at least one word (a sort of nothing binds it too).
vk::DeviceSize scratch_of(const sort::Plan& plan) {
  return std::max<vk::DeviceSize>(plan.layout.scratch_bytes, 16);
}

}  // namespace

struct Sort::State final : Diagnostics::Source {
  const ContextState* context = nullptr;
  const sort::Spec* spec = nullptr;
  std::string variant;
  DType dtype = DType::u32;
  BitRange bits{};
  SortValues values = SortValues::none;
  std::uint64_t count = 0;
  sort::Plan plan;                      // a call of `count` keys
  std::optional<sort::Plan> counted;    // a call of the count on the device, where taken
  std::string counted_refusal;          // why not
  std::string_view ranking_;            // Diagnostics::ranking()
  std::vector<vk::Pipeline> pipelines;  // one per pass of `plan`, then of `counted`
  // Each stage's pipeline and whether its module goes by address: a call of any size binds its
  // passes by stage.
  std::array<VkPipeline, sort::kStages> stage_pipelines{};
  std::array<bool, sort::kStages> stage_by_address{};

  // Each sort::Operand over the caller's operands: its descriptor and, for a plan by address, the
  // keys' and values' device addresses; the count's descriptor (binding 5).
  struct Resolved {
    std::array<VkDescriptorBufferInfo, sort::kOperands> infos{};
    std::array<VkDeviceAddress, sort::kOperands> addresses{};
    VkDescriptorBufferInfo count{};
    VkDescriptorBufferInfo words_with_grid{};  // the grid pass's words
  };
  Resolved resolve(std::string_view call, std::uint64_t keys,
                   const std::array<Operand, kCallers>& ops, const Operand* count) const;
  void check_operands(std::string_view call, std::uint64_t keys,
                      const std::array<Operand, kCallers>& ops, const Operand* count) const;
  void add_pipelines(ContextState& c, const sort::Plan& p);
  void record_passes(VkCommandBuffer cmd, std::span<const sort::Pass> passes, const Resolved& r,
                     const Operand& scratch) const;
  vk::DeviceSize scratch_bytes() const { return scratch_of(plan); }

  std::vector<CompiledPass> compiled() const override;
  std::optional<VkDeviceSize> fallback_count_offset() const override {
    return plan.layout.fallbacks_at;
  }
  std::string_view ranking() const override { return ranking_; }
  std::uint64_t tiles() const override { return plan.layout.tiles; }
  std::string_view tuning() const override { return plan.layout.tuning; }
};

void Sort::State::check_operands(std::string_view call, std::uint64_t keys,
                                 const std::array<Operand, kCallers>& ops,
                                 const Operand* count) const {
  const vk::DeviceSize key_bytes = keys * size_of(dtype);
  const vk::DeviceSize value_bytes = keys * xr::value_bytes(values);
  // The scratch is always bound (its words); the keys and values where the plan binds them.
  const bool bound = !plan.by_address;
  // The count's word is checked where there is one (0 bytes: not read).
  vulkan::check_operands(
      *context, call, bound ? "this sort, whose arrays fit one binding," : "the sort",
      {{ops[keys_in], key_bytes, bound, "keys_in"},
       {ops[keys_out], key_bytes, bound, "keys_out"},
       {ops[values_in], value_bytes, bound, "values_in"},
       {ops[values_out], value_bytes, bound, "values_out"},
       {ops[scratch], scratch_bytes(), true, "scratch", " (Sort::scratch_size())"},
       {count ? *count : Operand{}, count ? 4u : 0u, true, "count", " (one 32-bit word)"}});
}

Sort::State::Resolved Sort::State::resolve(std::string_view call, std::uint64_t keys,
                                           const std::array<Operand, kCallers>& ops,
                                           const Operand* count) const {
  check_operands(call, keys, ops, count);
  const sort::Schedule& l = plan.layout;
  const Operand& s = ops[scratch];
  const vk::DeviceSize key_bytes = keys * size_of(dtype);
  const bool pairs = values != SortValues::none;
  const vk::DeviceSize value_bytes = keys * xr::value_bytes(values);
  // The words every pass but the grid pass binds stop before the grid: no other pass reaches it,
  // as the validation layers see the passes (a binding's whole range).
  const VkDescriptorBufferInfo all_words{s.buffer, s.offset + l.words_at,
                                         l.scratch_bytes - l.words_at};
  const VkDescriptorBufferInfo words{s.buffer, s.offset + l.words_at,
                                     l.grid_at.value_or(l.scratch_bytes) - l.words_at};
  Resolved r;
  r.words_with_grid = all_words;
  r.count = count ? VkDescriptorBufferInfo{count->buffer, count->offset, 4} : words;
  if (plan.by_address) {
    // Every binding the words (the modules read binding 4 alone), so no range passes the limit.
    r.infos.fill(words);
    const auto address_of = [&](const Operand& o) { return operand_address(*context, o); };
    const VkDeviceAddress at = address_of(s);
    r.addresses = {address_of(ops[keys_in]),
                   address_of(ops[keys_out]),
                   pairs ? address_of(ops[values_in]) : 0,
                   pairs ? address_of(ops[values_out]) : 0,
                   at + l.alternate_keys_at,
                   at + l.alternate_values_at,
                   0,
                   0};
    return r;
  }
  // Keys-only calls bind the words at the values' bindings, which their modules never read.
  const auto value_info = [&](std::size_t i) -> VkDescriptorBufferInfo {
    if (!pairs) return words;
    return {ops[i].buffer, ops[i].offset, value_bytes};
  };
  r.infos = {VkDescriptorBufferInfo{ops[keys_in].buffer, ops[keys_in].offset, key_bytes},
             {ops[keys_out].buffer, ops[keys_out].offset, key_bytes},
             value_info(values_in),
             value_info(values_out),
             {s.buffer, s.offset + l.alternate_keys_at, key_bytes},
             {s.buffer, s.offset + l.alternate_values_at, pairs ? value_bytes : key_bytes},
             words,
             {s.buffer, s.offset + l.items_at, std::max<vk::DeviceSize>(l.items_bytes, 4)}};
  return r;
}

void Sort::State::add_pipelines(ContextState& c, const sort::Plan& p) {
  for (const sort::Dispatch& d : p.passes) {
    pipelines.push_back(c.pipelines->get({.module = d.module,
                                          .workgroup = d.workgroup,
                                          .unroll = d.items,
                                          .mode = d.window,
                                          .sort_mode = d.sort_mode,
                                          .min_subgroup = d.min_subgroup}));
    const auto stage = static_cast<std::size_t>(d.stage);
    stage_pipelines[stage] = pipelines.back();
    stage_by_address[stage] = d.by_address;
  }
}

void Sort::State::record_passes(VkCommandBuffer cmd, std::span<const sort::Pass> passes,
                                const Resolved& r, const Operand& scratch_operand) const {
  const auto& d = context->dispatch();
  const VkPipelineLayout layout = context->pipelines->pushed_layout();
  const sort::Schedule& l = plan.layout;
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const sort::Pass& pass = passes[i];
    const auto stage = static_cast<std::size_t>(pass.stage);
    // A pass reads the last's words; the grid pass writes the grid once the dispatches of an
    // earlier call have read theirs, and the digit passes' dispatches read it.
    const bool grid = pass.stage == sort::Stage::grid;
    if (i > 0)
      record_compute_barrier(d, cmd,
                             grid                                       ? Indirect::after_reads
                             : passes[i - 1].stage == sort::Stage::grid ? Indirect::before_reads
                                                                        : Indirect::none);
    d.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, stage_pipelines[stage]);
    std::array<const VkDescriptorBufferInfo*, sort::kBindings + 1> buffers{};
    for (std::size_t b = 0; b < sort::kBindings; ++b)
      buffers[b] = &r.infos[static_cast<std::size_t>(pass.bindings[b])];
    if (grid) buffers[4] = &r.words_with_grid;  // the others' words stop before it
    buffers[sort::kBindings] = &r.count;
    record_pushed_buffers(*context, cmd, buffers);
    if (stage_by_address[stage]) {
      sort::AddressPush push{.operands = {}, .args = pass.args};
      for (std::size_t b = 0; b < push.operands.size(); ++b)
        push.operands[b] = r.addresses[static_cast<std::size_t>(pass.bindings[b])];
      d.vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
    } else {
      d.vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pass.args,
                           &pass.args);
    }
    if (pass.indirect) {
      d.vkCmdDispatchIndirect(cmd, scratch_operand.buffer, scratch_operand.offset + *l.grid_at);
    } else {
      const Grid grid = grid_for(pass.groups, context->facts, variant);
      d.vkCmdDispatch(cmd, grid.x, grid.y, 1);
    }
  }
}

Sort::Sort(const Context& context, const SortDesc& asked) : state_(make_state<State>()) {
  ContextState& c = state_of(context);
  const sort::Spec& spec = choose_sort(context, asked.variant, asked.dtype);
  const SortDesc desc = check_sort_desc(asked);
  State& s = *state_;
  s.context = &c;
  s.spec = &spec;
  s.variant = spec.id();
  s.dtype = desc.dtype;
  s.bits = desc.bits;
  s.values = desc.values;
  s.count = desc.count;
  const sort::Knobs knobs = sort_knobs(c);
  if (spec.family != sort::Family::bitonic)
    s.ranking_ = to_string(sort_ranking(spec, c.facts, knobs));
  if (desc.count == 0) return;
  s.plan = sort_dispatches(spec, c.facts, desc.count, desc.dtype, desc.order, desc.bits,
                           desc.values, knobs);
  s.add_pipelines(c, s.plan);
  try {
    s.counted = sort_counted_dispatches(spec, c.facts, s.plan, desc.dtype, desc.order, desc.bits,
                                        desc.values);
    s.add_pipelines(c, *s.counted);
  } catch (const Error& e) {
    if (e.category() != ErrorCategory::unsupported) throw;
    s.counted_refusal = e.what();
  }
}

const std::string& Sort::variant() const {
  return state_->variant;
}

VkDeviceSize Sort::scratch_size() const {
  return state_->scratch_bytes();
}

VkDeviceSize Sort::scratch_size(const Context& context, const SortDesc& asked) {
  const sort::Spec& spec = choose_sort(context, asked.variant, asked.dtype);
  const SortDesc desc = check_sort_desc(asked);
  if (desc.count == 0) return scratch_of(sort::Plan{});
  const ContextState& c = state_of(context);
  return scratch_of(sort_dispatches(spec, c.facts, desc.count, desc.dtype, desc.order, desc.bits,
                                    desc.values, sort_knobs(c)));
}

void Sort::record_scratch_init(VkCommandBuffer cmd, VkBuffer scratch, VkDeviceSize offset) const {
  record_zero_fill(*state_->context, "Sort::record_scratch_init", cmd, scratch, offset,
                   scratch_size());
}

void Sort::record(VkCommandBuffer cmd, const Operand& keys_in, const Operand& keys_out,
                  const Operand& values_in, const Operand& values_out,
                  const Operand& scratch) const {
  const State& s = *state_;
  if (s.plan.passes.empty()) return;  // a sort of nothing
  const State::Resolved r = s.resolve("Sort::record", s.count,
                                      {keys_in, keys_out, values_in, values_out, scratch}, nullptr);
  s.record_passes(cmd, s.plan.layout.passes, r, scratch);
}

void Sort::record(VkCommandBuffer cmd, std::uint64_t count, const Operand& keys_in,
                  const Operand& keys_out, const Operand& values_in, const Operand& values_out,
                  const Operand& scratch) const {
  const State& s = *state_;
  if (count > s.count)
    throw Error(ErrorCategory::usage, "xreduce::vulkan: Sort::record: " + std::to_string(count) +
                                          " keys, and this Sort was made for at most " +
                                          std::to_string(s.count));
  if (count == s.count) return record(cmd, keys_in, keys_out, values_in, values_out, scratch);
  if (count == 0) return;
  const State::Resolved r = s.resolve("Sort::record", count,
                                      {keys_in, keys_out, values_in, values_out, scratch}, nullptr);
  // The plan of `count` keys over the capacity's layout, in storage this thread keeps.
  thread_local sort::Schedule call;
  plan_sort_call(call, s.spec->family, {.n = count, .capacity = s.count}, s.dtype, s.values, s.bits,
                 s.plan.options);
  s.record_passes(cmd, call.passes, r, scratch);
}

void Sort::record_indirect(VkCommandBuffer cmd, const Operand& count, const Operand& keys_in,
                           const Operand& keys_out, const Operand& values_in,
                           const Operand& values_out, const Operand& scratch) const {
  const State& s = *state_;
  if (s.plan.passes.empty()) return;  // a Sort of no keys sorts none, whatever the count
  if (!s.counted)
    throw Error(ErrorCategory::unsupported,
                "xreduce::vulkan: Sort::record_indirect: " + s.counted_refusal);
  const State::Resolved r = s.resolve("Sort::record_indirect", s.count,
                                      {keys_in, keys_out, values_in, values_out, scratch}, &count);
  s.record_passes(cmd, s.counted->layout.passes, r, scratch);
}

std::vector<CompiledPass> Sort::State::compiled() const {
  std::vector<CompiledPass> out;
  for (std::size_t i = 0; i < plan.passes.size(); ++i) {
    const sort::Dispatch& p = plan.passes[i];
    out.push_back(compiled_pass(*context->device, context->facts, pipelines[i], p.module,
                                p.workgroup, p.grid));
  }
  return out;
}

Diagnostics Sort::diagnostics() const {
  return Diagnostics(*state_);
}

}  // namespace xr::vulkan
