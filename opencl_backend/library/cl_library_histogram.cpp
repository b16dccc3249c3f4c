// xreduce/opencl/histogram.hpp: a histogram variant's plan (cl_histogram_plan) enqueued over the
// caller's buffers, its copies past the local memory in the caller's scratch.
#include <string>

#include "cl_check.hpp"
#include "cl_context.hpp"
#include "cl_histogram_plan.hpp"
#include "cl_operands.hpp"
#include "xreduce/error.hpp"
#include "xreduce/opencl/histogram.hpp"

namespace xr::opencl {
namespace {

[[noreturn]] void refuse(ErrorCategory category, const std::string& what) {
  throw Error(category, "xreduce::opencl: " + what);
}

// The variant `id` names, or the library's choice for the device (the first it runs).
const histogram::Spec& choose_histogram(const Context& context, const std::string& id, DType t) {
  const DeviceFacts& f = state_of(context).facts;
  if (id.empty()) {
    const std::vector<std::string> runnable = context.variants(Primitive::histogram, t);
    if (runnable.empty())
      refuse(ErrorCategory::unsupported,
             f.info.name + " runs no histogram over " + std::string(to_string(t)) + " samples");
    return *find_histogram(runnable.front());
  }
  const histogram::Spec* spec = find_histogram(id);
  if (!spec) refuse(ErrorCategory::usage, "no histogram variant '" + id + "'");
  if (const std::string why = variant_unsupported_reason(Primitive::histogram, id, f); !why.empty())
    refuse(ErrorCategory::unsupported, id + " cannot run on " + f.info.name + ": " + why);
  require_dtype(spec->id(), t, f);
  return *spec;
}

// The desc checked, then its variant: what the constructor and the scratch query refuse alike.
const histogram::Spec& checked_spec(const Context& context, const HistogramDesc& desc) {
  require_knobs(state_of(context));
  check_histogram_desc(desc);
  return choose_histogram(context, desc.variant, desc.dtype);
}

}  // namespace

struct Histogram::State final : Diagnostics::Source {
  ContextState* context = nullptr;
  std::string variant;
  HistogramDesc desc;
  histogram::Plan plan;        // when desc.count > 0
  histogram::Kernels kernels;  // its kernels, built
  CheckedOperands checked;     // the last enqueue's queue and buffers, whose checks passed

  std::uint64_t scratch_bytes() const { return desc.count ? plan.scratch_bytes : 0; }
  // The call's operands checked (the samples it reads, the counts, the scratch, the count's
  // word), then its commands.
  void enqueue(std::string_view call_name, cl_command_queue queue, const histogram::Call& call,
               const HistogramBuffers& b, cl_mem count, std::uint64_t count_offset,
               const EnqueueEvents& events);

  std::vector<CompiledPass> compiled() const override;
  std::uint64_t fallbacks(cl_command_queue, cl_mem) const override { return 0; }
  std::uint64_t tiles() const override { return 0; }
  std::string_view tuning() const override { return plan.tuning; }
};

void Histogram::State::enqueue(std::string_view call_name, cl_command_queue queue,
                               const histogram::Call& call, const HistogramBuffers& b, cl_mem count,
                               std::uint64_t count_offset, const EnqueueEvents& events) {
  if (call.counted && count_offset % 4)
    refuse(ErrorCategory::usage,
           std::string(call_name) + ": count_offset is not a multiple of 4 bytes");
  const bool any = call.n > 0;
  // The count's word is checked where a call reads one (0 bytes: not read), at its offset.
  const bool reads_count = call.counted && any;
  check_call(*context, call_name, queue,
             {{b.samples, call.n * size_of(desc.dtype), Access::read, "samples"},
              {b.counts, histogram_counts_bytes(desc.levels), Access::read_write, "counts"},
              {b.scratch, any ? scratch_bytes() : 0, Access::read_write, "scratch",
               " (Histogram::scratch_size())"},
              {reads_count ? count : nullptr, reads_count ? 4u : 0u, Access::read, "count",
               " (count_offset: one 32-bit word)", reads_count ? count_offset : 0}},
             &checked);
  if (!any) return enqueue_no_samples(queue, desc.levels, b.counts, call.output, events);
  enqueue_histogram(queue, plan, kernels, call,
                    {.samples = b.samples,
                     .counts = b.counts,
                     .scratch = b.scratch,
                     .count = reads_count ? count : nullptr,
                     .count_offset = count_offset},
                    events);
}

Histogram::Histogram(const Context& context, const HistogramDesc& desc)
    : state_(make_state<State>()) {
  const histogram::Spec& spec = checked_spec(context, desc);
  State& s = *state_;
  s.context = &state_of(context);
  s.variant = spec.id();
  s.desc = desc;
  if (desc.count == 0) return;
  s.plan = histogram_launches(spec, s.context->facts, desc, s.context->knobs.histogram_layout);
  s.kernels = build_histogram_kernels(*s.context->programs, s.plan);  // built now
}

const std::string& Histogram::variant() const {
  return state_->variant;
}

std::uint64_t Histogram::scratch_size() const {
  return state_->scratch_bytes();
}

std::uint64_t Histogram::scratch_size(const Context& context, const HistogramDesc& desc) {
  const histogram::Spec& spec = checked_spec(context, desc);
  if (desc.count == 0) return 0;
  const ContextState& c = state_of(context);
  return histogram_launches(spec, c.facts, desc, c.knobs.histogram_layout).scratch_bytes;
}

void Histogram::enqueue(cl_command_queue queue, const HistogramBuffers& b, HistogramOutput output,
                        std::span<const cl_event> wait, cl_event* first, cl_event* last) const {
  enqueue(queue, state_->desc.count, b, output, wait, first, last);
}

void Histogram::enqueue(cl_command_queue queue, std::uint64_t count, const HistogramBuffers& b,
                        HistogramOutput output, std::span<const cl_event> wait, cl_event* first,
                        cl_event* last) const {
  State& s = *state_;
  if (count > s.desc.count)
    refuse(ErrorCategory::usage, "Histogram::enqueue: " + std::to_string(count) +
                                     " samples, and this Histogram was made for at most " +
                                     std::to_string(s.desc.count));
  s.enqueue("Histogram::enqueue", queue, {.n = count, .counted = false, .output = output}, b,
            nullptr, 0, {.wait = wait, .first = first, .last = last});
}

void Histogram::enqueue_indirect(cl_command_queue queue, cl_mem count, std::uint64_t count_offset,
                                 const HistogramBuffers& b, HistogramOutput output,
                                 std::span<const cl_event> wait, cl_event* first,
                                 cl_event* last) const {
  State& s = *state_;
  s.enqueue("Histogram::enqueue_indirect", queue,
            {.n = s.desc.count, .counted = true, .output = output}, b, count, count_offset,
            {.wait = wait, .first = first, .last = last});
}

std::string Histogram::describe() const {
  const State& s = *state_;
  if (!s.desc.count)
    return s.variant + ": 0 samples, no kernel (an overwriting call fills the counts with zeros)";
  return s.variant + ": " + s.plan.describe();
}

std::vector<CompiledPass> Histogram::State::compiled() const {
  std::vector<CompiledPass> out;
  if (!desc.count) return out;
  CompiledPass main = compiled_kernel(*context->programs, context->facts, plan.main, plan.groups);
  main.dynamic_shared = plan.local_bytes;
  out.push_back(std::move(main));
  if (plan.merge)
    out.push_back(
        compiled_kernel(*context->programs, context->facts, *plan.merge, plan.merge_groups));
  return out;
}

Diagnostics Histogram::diagnostics() const {
  return Diagnostics(*state_);
}

}  // namespace xr::opencl
