// xreduce/opencl/reduce.hpp: a reduce variant's plan (cl_reduce_plan) enqueued over the caller's
// buffers.
#include "cl_check.hpp"
#include "cl_context.hpp"
#include "cl_operands.hpp"
#include "cl_reduce_plan.hpp"
#include "cl_requirements.hpp"
#include "xreduce/error.hpp"
#include "xreduce/opencl/reduce.hpp"

namespace xr::opencl {
namespace {

// The spec of `id`, or the library's choice: the first in its order the device runs over t.
const ReduceSpec& choose_reduce(const Context& context, const std::string& id, DType t) {
  const DeviceFacts& f = state_of(context).facts;
  if (id.empty()) {
    const std::vector<std::string> runnable = context.variants(Primitive::reduce, t);
    if (runnable.empty())
      throw Error(
          ErrorCategory::unsupported,
          "xreduce::opencl: " + f.info.name + " runs no reduce over " + std::string(to_string(t)));
    return *find_reduce(runnable.front());
  }
  const ReduceSpec* spec = find_reduce(id);
  if (!spec) throw Error(ErrorCategory::usage, "xreduce::opencl: no reduce variant '" + id + "'");
  if (const std::string why = variant_unsupported_reason(Primitive::reduce, id, f); !why.empty())
    throw Error(ErrorCategory::unsupported,
                "xreduce::opencl: " + id + " cannot run on " + f.info.name + ": " + why);
  require_dtype(spec->id(), t, f);
  return *spec;
}

}  // namespace

struct Reduce::State {
  ContextState* context = nullptr;
  std::string variant;
  DType accumulator = DType::i32;
  std::uint64_t bytes = 0;  // of the input
  CheckedOperands checked;  // the last enqueue's queue and buffers, whose checks passed
  Launches plan;
};

Reduce::Reduce(const Context& context, const ReduceDesc& desc) : state_(make_state<State>()) {
  if (desc.count == 0)
    throw Error(ErrorCategory::usage,
                "xreduce::opencl: a reduce of 0 elements launches nothing: its result is the "
                "operator's identity");
  require_knobs(state_of(context));
  const ReduceSpec& spec = choose_reduce(context, desc.variant, desc.dtype);
  State& s = *state_;
  s.context = &state_of(context);
  s.variant = spec.id();
  s.accumulator = accumulator_of(desc.dtype);
  s.bytes = desc.count * size_of(desc.dtype);
  s.plan = reduce_launches(spec, desc.count, desc.dtype, desc.op);
  for (const Pass& p : s.plan.passes) s.context->programs->kernel(p.key);  // build now
}

const std::string& Reduce::variant() const {
  return state_->variant;
}

DType Reduce::result_dtype() const {
  return state_->accumulator;
}

std::uint64_t Reduce::scratch_size() const {
  return state_->plan.scratch_bytes;
}

void Reduce::enqueue_scratch_init(cl_command_queue queue, cl_mem scratch) const {
  if (!scratch_size()) return;
  check_call(
      *state_->context, "Reduce::enqueue_scratch_init", queue,
      {{scratch, scratch_size(), Access::read_write, "scratch", " (Reduce::scratch_size())"}});
  const cl_uchar zero = 0;
  XR_CL_CHECK(
      clEnqueueFillBuffer(queue, scratch, &zero, 1, 0, scratch_size(), 0, nullptr, nullptr));
}

void Reduce::enqueue(cl_command_queue queue, cl_mem input, cl_mem output, cl_mem scratch,
                     std::span<const cl_event> wait, cl_event* first, cl_event* last) const {
  check_call(
      *state_->context, "Reduce::enqueue", queue,
      {{input, state_->bytes, Access::read, "input"},
       {output, size_of(state_->accumulator), Access::write, "output"},
       {scratch, scratch_size(), Access::read_write, "scratch", " (Reduce::scratch_size())"}},
      &state_->checked);
  enqueue_passes(*state_->context->programs, queue, state_->plan.passes, {input, output, scratch},
                 {.wait = wait, .first = first, .last = last});
}

std::vector<CompiledPass> Reduce::compiled() const {
  return compiled_passes(*state_->context->programs, state_->context->facts, state_->plan.passes);
}

}  // namespace xr::opencl
