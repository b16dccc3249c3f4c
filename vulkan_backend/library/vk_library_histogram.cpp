// xreduce/vulkan/histogram.hpp: a histogram variant's plan (vk_histogram_plan) recorded over the
// caller's samples, counts, scratch and count word, each pass's four bindings pushed.
#include <algorithm>
#include <array>

#include "vk_compiled.hpp"
#include "vk_context.hpp"
#include "vk_histogram_plan.hpp"
#include "vk_operands.hpp"
#include "vk_recording.hpp"
#include "xreduce/error.hpp"
#include "xreduce/vulkan/histogram.hpp"

namespace xr::vulkan {
namespace {

// Samples, counts, scratch, the count word.
constexpr std::size_t kHistogramBindings = 4;
static_assert(kHistogramBindings <= kLibraryBindings,
              "a histogram's bindings are the library layout's");
static_assert(sizeof(histogram::AddressPush) <= kPushBytes,
              "a histogram's push constants are the layout's");

[[noreturn]] void refuse(ErrorCategory category, const std::string& what) {
  throw Error(category, "xreduce::vulkan: " + what);
}

const histogram::Spec& library_choice(const Context& context, DType t) {
  const ContextState& c = state_of(context);
  const std::vector<std::string> runnable = context.variants(Primitive::histogram, t);
  if (runnable.empty())
    refuse(ErrorCategory::unsupported,
           c.facts.info.name + " runs no histogram over " + std::string(to_string(t)) +
               (histogram_sample_missing(t, c.facts).empty()
                    ? ""
                    : ": it lacks " + histogram_sample_missing(t, c.facts)));
  return *find_histogram(runnable.front());
}

// The spec of `desc.variant` as the device runs it, or the library's choice: the first in its
// order the device can run over the desc's samples.
const histogram::Spec& choose_histogram(const Context& context, const HistogramDesc& desc) {
  ContextState& c = state_of(context);
  const histogram::Spec* spec = desc.variant.empty() ? nullptr : find_histogram(desc.variant);
  if (!desc.variant.empty() && !spec)
    refuse(ErrorCategory::usage, "no histogram variant '" + desc.variant + "'");
  if (!c.facts.push_descriptors)
    refuse(ErrorCategory::unsupported,
           "the histograms bind their operands by push descriptor, and " + c.facts.info.name +
               " was made without VK_KHR_push_descriptor: enable it in the VkDeviceCreateInfo "
               "the Context is given");
  if (!spec) return library_choice(context, desc.dtype);
  const std::string why =
      variant_unsupported_reason(Primitive::histogram, spec->id(), c.facts, c.lookback);
  if (!why.empty())
    refuse(ErrorCategory::unsupported,
           desc.variant + " cannot run on " + c.facts.info.name + ": " + why);
  if (const std::string lacks = histogram_sample_missing(desc.dtype, c.facts); !lacks.empty())
    refuse(ErrorCategory::unsupported,
           desc.variant + " over " + std::string(to_string(desc.dtype)) + " on " +
               c.facts.info.name + ": needs " + lacks + ", which this device lacks");
  if (desc.levels.bins > spec->max_bins)
    refuse(ErrorCategory::unsupported, desc.variant + " counts at most " +
                                           std::to_string(spec->max_bins) + " bins, not " +
                                           std::to_string(desc.levels.bins));
  return *spec;
}

histogram::Knobs histogram_knobs(const ContextState& c) {
  return {.force_address = c.knobs.force_address,
          .force_ballots = c.knobs.force_ballots,
          .layout = c.knobs.histogram_layout};
}

// The request first (check_histogram_desc), then the device.
histogram::Plan plan_of(const Context& context, const HistogramDesc& desc,
                        const histogram::Spec*& spec) {
  check_histogram_desc(desc);
  spec = &choose_histogram(context, desc);
  const ContextState& c = state_of(context);
  return histogram_plan(*spec, c.facts, desc, histogram_knobs(c));
}

// The caller's operands of one call.
struct CallOperands {
  Operand samples, counts, scratch;
};

}  // namespace

struct Histogram::State final : Diagnostics::Source {
  const ContextState* context = nullptr;
  std::string variant;
  histogram::Plan plan;
  VkPipeline zero = VK_NULL_HANDLE, count = VK_NULL_HANDLE, sum = VK_NULL_HANDLE;

  // The four bindings of a call's passes and the samples' address (by address).
  struct Resolved {
    VkDescriptorBufferInfo samples{}, counts{}, copies{}, scratch{}, count{};
    VkDeviceAddress samples_at = 0;
  };
  void check_operands(std::string_view call, std::uint64_t n, const CallOperands& ops,
                      const Operand* count) const;
  Resolved resolve(std::string_view call, std::uint64_t n, const CallOperands& ops,
                   const Operand* count) const;
  void record_call(VkCommandBuffer cmd, std::string_view name, std::uint64_t n, bool counted,
                   const CallOperands& ops, const Operand* count, HistogramOutput output) const;
  void record_pass(VkCommandBuffer cmd, const histogram::Pass& pass, const Resolved& r) const;
  VkPipeline pipeline_of(histogram::Stage stage) const;
  const histogram::Pipeline& pipeline_key(histogram::Stage stage) const;

  std::vector<CompiledPass> compiled() const override;
  std::optional<VkDeviceSize> fallback_count_offset() const override { return std::nullopt; }
  std::string_view ranking() const override { return to_string(plan.match); }
  std::uint64_t tiles() const override { return 0; }
  std::string_view tuning() const override { return plan.tuning; }
};

namespace {

// The bytes of n samples the counting pass reads: whole 32-bit words.
vk::DeviceSize histogram_samples_bytes(DType t, std::uint64_t n) {
  return (n * size_of(t) + 3) / 4 * 4;
}

}  // namespace

void Histogram::State::check_operands(std::string_view call, std::uint64_t n,
                                      const CallOperands& ops, const Operand* count) const {
  const HistogramDesc& d = plan.desc;
  vulkan::check_operands(
      *context, call,
      plan.by_address ? "the histogram" : "this histogram, whose samples fit one binding,",
      {{ops.samples, histogram_samples_bytes(d.dtype, n), !plan.by_address, "samples",
        " (whole 32-bit words)"},
       {ops.counts, histogram_counts_bytes(d.levels), true, "counts"},
       {ops.scratch, plan.scratch_bytes, true, "scratch", " (Histogram::scratch_size())"},
       {count ? *count : Operand{}, count ? 4u : 0u, true, "count", " (one 32-bit word)"}});
}

Histogram::State::Resolved Histogram::State::resolve(std::string_view call, std::uint64_t n,
                                                     const CallOperands& ops,
                                                     const Operand* count) const {
  check_operands(call, n, ops, count);
  const Operand& c = ops.counts;
  const Operand& s = ops.scratch;
  Resolved r;
  r.counts = {c.buffer, c.offset, histogram_counts_bytes(plan.desc.levels)};
  r.scratch = {s.buffer, s.offset, plan.scratch_bytes};
  r.copies =
      plan.copies_bytes ? VkDescriptorBufferInfo{s.buffer, s.offset, plan.copies_bytes} : r.scratch;
  // A call without the count on the device binds a word of scratch there, never read.
  r.count = count ? VkDescriptorBufferInfo{count->buffer, count->offset, 4}
                  : VkDescriptorBufferInfo{s.buffer, s.offset, 4};
  // By address the modules read no binding 0: the counts stand there.
  r.samples = r.counts;
  if (plan.by_address)
    r.samples_at = n ? operand_address(*context, ops.samples) : 0;
  else if (n)
    r.samples = {ops.samples.buffer, ops.samples.offset,
                 histogram_samples_bytes(plan.desc.dtype, n)};
  return r;
}

const histogram::Pipeline& Histogram::State::pipeline_key(histogram::Stage stage) const {
  if (stage == histogram::Stage::zero) return plan.zero;
  return stage == histogram::Stage::count ? plan.count : plan.sum;
}

VkPipeline Histogram::State::pipeline_of(histogram::Stage stage) const {
  if (stage == histogram::Stage::zero) return zero;
  return stage == histogram::Stage::count ? count : sum;
}

void Histogram::State::record_pass(VkCommandBuffer cmd, const histogram::Pass& pass,
                                   const Resolved& r) const {
  const auto& d = context->dispatch();
  const VkPipelineLayout layout = context->pipelines->pushed_layout();
  d.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_of(pass.stage));
  // A zero pass clears what it finds at binding 1: the counts, or the copies in scratch.
  const VkDescriptorBufferInfo& first = pass.zeroes_copies ? r.copies : r.counts;
  const std::array<const VkDescriptorBufferInfo*, kHistogramBindings> buffers{&r.samples, &first,
                                                                              &r.copies, &r.count};
  record_pushed_buffers(*context, cmd, buffers);
  if (pass.stage == histogram::Stage::count && plan.by_address) {
    const histogram::AddressPush push{.samples = r.samples_at, .args = pass.args};
    d.vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
  } else {
    d.vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pass.args, &pass.args);
  }
  d.vkCmdDispatch(cmd, pass.groups, pass.rows, 1);
}

void Histogram::State::record_call(VkCommandBuffer cmd, std::string_view name, std::uint64_t n,
                                   bool counted, const CallOperands& ops, const Operand* count,
                                   HistogramOutput output) const {
  const histogram::Call call = histogram_call(plan, context->facts, n, counted, output);
  if (call.size == 0) return;  // an accumulating call of no samples
  const bool reads = counted ? plan.desc.count > 0 : n > 0;
  const Resolved r = resolve(name, reads ? n : 0, ops, reads ? count : nullptr);
  for (std::size_t i = 0; i < call.size; ++i) {
    if (i > 0) record_compute_barrier(context->dispatch(), cmd);  // a pass reads the last's
    record_pass(cmd, call.passes[i], r);
  }
}

std::vector<CompiledPass> Histogram::State::compiled() const {
  std::vector<CompiledPass> out;
  const histogram::Call call =
      histogram_call(plan, context->facts, plan.desc.count, false, HistogramOutput::overwrite);
  for (const histogram::Pass& pass : call.view()) {
    const histogram::Pipeline& key = pipeline_key(pass.stage);
    out.push_back(compiled_pass(*context->device, context->facts, pipeline_of(pass.stage),
                                key.module, key.workgroup, Grid{pass.groups, pass.rows}));
  }
  return out;
}

namespace {

VkPipeline histogram_pipeline(ContextState& c, const histogram::Pipeline& p) {
  return c.pipelines->get({.module = p.module,
                           .workgroup = p.workgroup,
                           .unroll = p.items,
                           .shared_words = p.shared_words,
                           .histogram_mode = p.mode});
}

vk::DeviceSize histogram_scratch(const histogram::Plan& plan) {
  return std::max<vk::DeviceSize>(plan.scratch_bytes, 16);
}

}  // namespace

Histogram::Histogram(const Context& context, const HistogramDesc& desc)
    : state_(make_state<State>()) {
  ContextState& c = state_of(context);
  const histogram::Spec* spec = nullptr;
  State& s = *state_;
  s.plan = plan_of(context, desc, spec);
  s.context = &c;
  s.variant = spec->id();
  s.zero = histogram_pipeline(c, s.plan.zero);
  if (desc.count == 0) return;
  s.count = histogram_pipeline(c, s.plan.count);
  if (s.plan.copies_bytes) s.sum = histogram_pipeline(c, s.plan.sum);
}

const std::string& Histogram::variant() const {
  return state_->variant;
}

VkDeviceSize Histogram::scratch_size() const {
  return histogram_scratch(state_->plan);
}

VkDeviceSize Histogram::scratch_size(const Context& context, const HistogramDesc& desc) {
  const histogram::Spec* spec = nullptr;
  return histogram_scratch(plan_of(context, desc, spec));
}

void Histogram::record(VkCommandBuffer cmd, const Operand& samples, const Operand& counts,
                       const Operand& scratch, HistogramOutput output) const {
  state_->record_call(cmd, "Histogram::record", state_->plan.desc.count, false,
                      {samples, counts, scratch}, nullptr, output);
}

void Histogram::record(VkCommandBuffer cmd, std::uint64_t count, const Operand& samples,
                       const Operand& counts, const Operand& scratch,
                       HistogramOutput output) const {
  const State& s = *state_;
  if (count > s.plan.desc.count)
    refuse(ErrorCategory::usage, "Histogram::record: " + std::to_string(count) +
                                     " samples, and this Histogram was made for at most " +
                                     std::to_string(s.plan.desc.count));
  s.record_call(cmd, "Histogram::record", count, false, {samples, counts, scratch}, nullptr,
                output);
}

void Histogram::record_indirect(VkCommandBuffer cmd, const Operand& count, const Operand& samples,
                                const Operand& counts, const Operand& scratch,
                                HistogramOutput output) const {
  state_->record_call(cmd, "Histogram::record_indirect", state_->plan.desc.count, true,
                      {samples, counts, scratch}, &count, output);
}

std::string Histogram::describe() const {
  const State& s = *state_;
  if (!s.plan.desc.count)
    return s.variant + ": 0 samples, no counting pass (an overwriting call zeroes the counts)";
  return s.variant + ": " + s.plan.describe();
}

Diagnostics Histogram::diagnostics() const {
  return Diagnostics(*state_);
}

}  // namespace xr::vulkan
