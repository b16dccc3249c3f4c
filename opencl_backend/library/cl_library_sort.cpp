// xreduce/opencl/sort.hpp: a sort variant's plan (core's, translated: cl_sort_plan) enqueued over
// the caller's buffers, the alternates and words in regions of its scratch.
#include <optional>

#include "cl_check.hpp"
#include "cl_context.hpp"
#include "cl_operands.hpp"
#include "cl_sort_plan.hpp"
#include "xreduce/error.hpp"
#include "xreduce/opencl/sort.hpp"

namespace xr::opencl {
namespace {

// Polls of an unpublished predecessor before a work-group counts its digits itself, unless
// XR_CL_LOOKBACK_POLLS says (0: at once, the forced fallback of the tests): Vulkan's patience,
// long enough that a running predecessor is waited for, short enough that a stalled one is not
// for long.
constexpr std::uint32_t kLookBackPolls = 64;

const sort::Spec& choose_sort(const Context& context, const std::string& id, DType t) {
  const DeviceFacts& f = state_of(context).facts;
  if (id.empty()) {
    const std::vector<std::string> runnable = context.variants(Primitive::sort, t);
    if (runnable.empty())
      throw Error(
          ErrorCategory::unsupported,
          "xreduce::opencl: " + f.info.name + " runs no sort over " + std::string(to_string(t)));
    return *find_sort(runnable.front());
  }
  const sort::Spec* spec = find_sort(id);
  if (!spec) throw Error(ErrorCategory::usage, "xreduce::opencl: no sort variant '" + id + "'");
  if (const std::string why = variant_unsupported_reason(Primitive::sort, id, f); !why.empty())
    throw Error(ErrorCategory::unsupported,
                "xreduce::opencl: " + id + " cannot run on " + f.info.name + ": " + why);
  require_dtype(spec->id(), t, f);
  return *spec;
}

// The plan of `desc` on the context's device, with the tool's knobs (a library caller's context
// has none): no kernel is built.
sort::Plan plan_sort(const ContextState& c, const sort::Spec& spec, const SortDesc& desc) {
  const OpenClKnobs& k = c.knobs;
  return sort_launches(spec, c.facts, desc.count, desc.dtype, desc.order, desc.bits, desc.values,
                       k.polls_given.value_or(kLookBackPolls), k.sort_tile, k.sort_wide,
                       k.sort_per_mode);
}

// Sort::scratch_size(): the plan's, at least one word (a sort of nothing takes one too).
std::uint64_t scratch_of(const sort::Plan& plan) {
  return std::max<std::uint64_t>(plan.layout.scratch_bytes, 16);
}

}  // namespace

struct Sort::State final : Diagnostics::Source {
  ContextState* context = nullptr;
  const sort::Spec* spec = nullptr;
  std::string variant;
  BitRange bits{};
  SortValues values = SortValues::none;
  std::uint64_t count = 0;
  std::uint64_t key_bytes = 0;        // a key's
  sort::Plan plan;                    // a call of `count` keys
  std::optional<sort::Plan> counted;  // a call of the count on the device, where taken
  std::string counted_refusal;        // why not
  sort::StageKernels kernels{};       // of both
  CheckedOperands checked;            // the last enqueue's queue and buffers, whose checks passed

  std::uint64_t scratch_bytes() const { return scratch_of(plan); }
  // Every call but enqueue touches the scratch alone.
  void check_scratch(std::string_view call, cl_command_queue queue, cl_mem scratch) const {
    check_call(
        *context, call, queue,
        {{scratch, scratch_bytes(), Access::read_write, "scratch", " (Sort::scratch_size())"}});
  }
  // The call's operands checked (buffers holding `keys` keys and values), then its launches.
  void enqueue(std::string_view call, cl_command_queue queue, std::uint64_t keys,
               std::span<const xr::sort::Pass> passes, const SortBuffers& b,
               const sort::Region* count, const EnqueueEvents& events);

  std::vector<CompiledPass> compiled() const override;
  std::uint64_t fallbacks(cl_command_queue queue, cl_mem scratch) const override;
  std::uint64_t tiles() const override { return plan.layout.tiles; }
  std::string_view tuning() const override { return plan.layout.tuning; }
};

void Sort::State::enqueue(std::string_view call, cl_command_queue queue, std::uint64_t keys,
                          std::span<const xr::sort::Pass> passes, const SortBuffers& b,
                          const sort::Region* count, const EnqueueEvents& events) {
  const bool pairs = values != SortValues::none;
  const std::uint64_t value_bytes = keys * xr::value_bytes(values);
  if (count && count->offset % 4)
    throw Error(ErrorCategory::usage, "xreduce::opencl: " + std::string(call) +
                                          ": count_offset is not a multiple of 4 bytes");
  // The count's word is checked where there is one (0 bytes: not read), at its offset.
  check_call(
      *context, call, queue,
      {{b.keys_in, keys * key_bytes, Access::read, "keys_in"},
       {b.keys_out, keys * key_bytes, Access::write, "keys_out"},
       {b.values_in, value_bytes, Access::read, "values_in"},
       {b.values_out, value_bytes, Access::write, "values_out"},
       {b.scratch, scratch_bytes(), Access::read_write, "scratch", " (Sort::scratch_size())"},
       {count ? count->buffer : nullptr, count ? 4u : 0u, Access::read, "count",
        " (count_offset: one 32-bit word)", count ? count->offset : 0}},
      &checked);
  const sort::Schedule& l = plan.layout;
  const sort::Region words{b.scratch, l.words_at};
  // By sort::Operand; keys-only calls hand the words to the values' arguments, never read.
  const sort::CallOperands operands{.kernels = &kernels,
                                    .regions = {sort::Region{b.keys_in, 0},
                                                {b.keys_out, 0},
                                                pairs ? sort::Region{b.values_in, 0} : words,
                                                pairs ? sort::Region{b.values_out, 0} : words,
                                                {b.scratch, l.alternate_keys_at},
                                                {b.scratch, l.alternate_values_at},
                                                words,
                                                {b.scratch, l.items_at}},
                                    .count = count ? *count : words,
                                    .key_bytes = plan.key_bytes,
                                    .mode = plan.mode};
  enqueue_sort(queue, passes, operands, events);
}

Sort::Sort(const Context& context, const SortDesc& asked) : state_(make_state<State>()) {
  require_knobs(state_of(context));
  const sort::Spec& spec = choose_sort(context, asked.variant, asked.dtype);
  const SortDesc desc = check_sort_desc(asked);
  State& s = *state_;
  s.context = &state_of(context);
  s.spec = &spec;
  s.variant = spec.id();
  s.bits = desc.bits;
  s.values = desc.values;
  s.count = desc.count;
  s.key_bytes = size_of(desc.dtype);
  if (desc.count == 0) return;
  s.plan = plan_sort(*s.context, spec, desc);
  add_sort_kernels(*s.context->programs, s.plan, s.kernels);  // built now
  try {
    s.counted = sort_counted_launches(spec, s.plan, desc.bits, desc.values);
    add_sort_kernels(*s.context->programs, *s.counted, s.kernels);
  } catch (const Error& e) {
    if (e.category() != ErrorCategory::unsupported) throw;
    s.counted_refusal = e.what();
  }
}

const std::string& Sort::variant() const {
  return state_->variant;
}

std::uint64_t Sort::scratch_size() const {
  return state_->scratch_bytes();
}

std::uint64_t Sort::scratch_size(const Context& context, const SortDesc& asked) {
  require_knobs(state_of(context));
  const sort::Spec& spec = choose_sort(context, asked.variant, asked.dtype);
  const SortDesc desc = check_sort_desc(asked);
  if (desc.count == 0) return scratch_of(sort::Plan{});
  return scratch_of(plan_sort(state_of(context), spec, desc));
}

void Sort::enqueue_scratch_init(cl_command_queue queue, cl_mem scratch,
                                std::span<const cl_event> wait, cl_event* done) const {
  state_->check_scratch("Sort::enqueue_scratch_init", queue, scratch);
  const cl_uint zero = 0;
  XR_CL_CHECK(clEnqueueFillBuffer(queue, scratch, &zero, sizeof zero, 0, scratch_size(),
                                  static_cast<cl_uint>(wait.size()),
                                  wait.empty() ? nullptr : wait.data(), done));
}

void Sort::enqueue(cl_command_queue queue, const SortBuffers& b, std::span<const cl_event> wait,
                   cl_event* first, cl_event* last) const {
  State& s = *state_;
  if (s.plan.passes.empty()) return;  // a sort of nothing
  s.enqueue("Sort::enqueue", queue, s.count, s.plan.layout.passes, b, nullptr,
            {.wait = wait, .first = first, .last = last});
}

void Sort::enqueue(cl_command_queue queue, std::uint64_t count, const SortBuffers& b,
                   std::span<const cl_event> wait, cl_event* first, cl_event* last) const {
  State& s = *state_;
  if (count > s.count)
    throw Error(ErrorCategory::usage, "xreduce::opencl: Sort::enqueue: " + std::to_string(count) +
                                          " keys, and this Sort was made for at most " +
                                          std::to_string(s.count));
  if (count == s.count) return enqueue(queue, b, wait, first, last);
  if (count == 0) return;
  // The plan of `count` keys over the capacity's layout, in storage this thread keeps.
  thread_local xr::sort::Schedule call;
  plan_sort_call(call, s.spec->family, {.n = count, .capacity = s.count}, s.plan.dtype, s.values,
                 s.bits, s.plan.options);
  s.enqueue("Sort::enqueue", queue, count, call.passes, b, nullptr,
            {.wait = wait, .first = first, .last = last});
}

void Sort::enqueue_indirect(cl_command_queue queue, cl_mem count, std::uint64_t count_offset,
                            const SortBuffers& b, std::span<const cl_event> wait, cl_event* first,
                            cl_event* last) const {
  State& s = *state_;
  if (s.plan.passes.empty()) return;  // a Sort of no keys sorts none, whatever the count
  if (!s.counted)
    throw Error(ErrorCategory::unsupported,
                "xreduce::opencl: Sort::enqueue_indirect: " + s.counted_refusal);
  const sort::Region word{count, count_offset};
  s.enqueue("Sort::enqueue_indirect", queue, s.count, s.counted->layout.passes, b, &word,
            {.wait = wait, .first = first, .last = last});
}

std::vector<CompiledPass> Sort::State::compiled() const {
  std::vector<CompiledPass> out;
  for (const sort::Launch& p : plan.passes)
    out.push_back(compiled_kernel(*context->programs, context->facts, p.key, p.groups));
  return out;
}

std::uint64_t Sort::State::fallbacks(cl_command_queue queue, cl_mem scratch) const {
  const auto& at = plan.layout.fallbacks_at;
  if (!at) return 0;
  check_scratch("Diagnostics::fallbacks", queue, scratch);
  cl_uint count = 0;
  XR_CL_CHECK(
      clEnqueueReadBuffer(queue, scratch, CL_TRUE, *at, sizeof count, &count, 0, nullptr, nullptr));
  return count;
}

Diagnostics Sort::diagnostics() const {
  return Diagnostics(*state_);
}

}  // namespace xr::opencl
