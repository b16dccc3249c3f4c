// xreduce/opencl/scan.hpp: a scan variant's plan (cl_scan_plan) enqueued over the caller's
// buffers.
#include "cl_check.hpp"
#include "cl_context.hpp"
#include "cl_operands.hpp"
#include "cl_requirements.hpp"
#include "cl_scan_plan.hpp"
#include "xreduce/error.hpp"
#include "xreduce/opencl/scan.hpp"

namespace xr::opencl {
namespace {

const ScanSpec& choose_scan(const Context& context, const std::string& id, DType t) {
  const DeviceFacts& f = state_of(context).facts;
  if (id.empty()) {
    const std::vector<std::string> runnable = context.variants(Primitive::scan, t);
    if (runnable.empty())
      throw Error(
          ErrorCategory::unsupported,
          "xreduce::opencl: " + f.info.name + " runs no scan over " + std::string(to_string(t)));
    return *find_scan(runnable.front());
  }
  const ScanSpec* spec = find_scan(id);
  if (!spec) throw Error(ErrorCategory::usage, "xreduce::opencl: no scan variant '" + id + "'");
  if (const std::string why = variant_unsupported_reason(Primitive::scan, id, f); !why.empty())
    throw Error(ErrorCategory::unsupported,
                "xreduce::opencl: " + id + " cannot run on " + f.info.name + ": " + why);
  require_dtype(spec->id(), t, f);
  return *spec;
}

}  // namespace

struct Scan::State {
  ContextState* context = nullptr;
  std::string variant;
  std::uint64_t bytes = 0;  // of the input, and of the output
  CheckedOperands checked;  // the last enqueue's queue and buffers, whose checks passed
  Launches plan;
};

Scan::Scan(const Context& context, const ScanDesc& desc) : state_(make_state<State>()) {
  if (desc.count == 0)
    throw Error(ErrorCategory::usage, "xreduce::opencl: a scan of 0 elements launches nothing");
  require_knobs(state_of(context));
  const ScanSpec& spec = choose_scan(context, desc.variant, desc.dtype);
  State& s = *state_;
  s.context = &state_of(context);
  s.variant = spec.id();
  s.bytes = desc.count * size_of(desc.dtype);
  s.plan = scan_launches(spec, desc.count, desc.dtype, desc.op, desc.kind,
                         s.context->knobs.lookback, s.context->facts.max_work_group);
  for (const Pass& p : s.plan.passes) s.context->programs->kernel(p.key);  // build now
}

const std::string& Scan::variant() const {
  return state_->variant;
}

std::uint64_t Scan::scratch_size() const {
  return state_->plan.scratch_bytes;
}

void Scan::enqueue(cl_command_queue queue, cl_mem input, cl_mem output, cl_mem scratch,
                   std::span<const cl_event> wait, cl_event* first, cl_event* last) const {
  const Launches& plan = state_->plan;
  check_call(
      *state_->context, "Scan::enqueue", queue,
      {{input, state_->bytes, Access::read, "input"},
       {output, state_->bytes, Access::write, "output"},
       {scratch, plan.scratch_bytes, Access::read_write, "scratch", " (Scan::scratch_size())"}},
      &state_->checked);
  if (!plan.zero_scratch) {
    enqueue_passes(*state_->context->programs, queue, plan.passes, {input, output, scratch},
                   {.wait = wait, .first = first, .last = last});
    return;
  }
  // The fill is the call's first command: its event starts the call.
  const cl_uint zero = 0;
  cl_event fill = nullptr;
  XR_CL_CHECK(clEnqueueFillBuffer(queue, scratch, &zero, sizeof zero, 0, plan.scratch_bytes,
                                  static_cast<cl_uint>(wait.size()),
                                  wait.empty() ? nullptr : wait.data(), &fill));
  EventOwner owned(fill);
  if (first) {
    clRetainEvent(fill);
    *first = fill;
  }
  enqueue_passes(*state_->context->programs, queue, plan.passes, {input, output, scratch},
                 {.wait = {}, .first = nullptr, .last = last});
}

std::uint64_t Scan::fallbacks(cl_command_queue queue, cl_mem scratch) const {
  const auto& at = state_->plan.fallbacks_at;
  if (!at) return 0;
  check_call(*state_->context, "Scan::fallbacks", queue,
             {{scratch, scratch_size(), Access::read_write, "scratch", " (Scan::scratch_size())"}});
  cl_ulong count = 0;
  XR_CL_CHECK(
      clEnqueueReadBuffer(queue, scratch, CL_TRUE, *at, sizeof count, &count, 0, nullptr, nullptr));
  return count;
}

std::vector<CompiledPass> Scan::compiled() const {
  return compiled_passes(*state_->context->programs, state_->context->facts, state_->plan.passes);
}

}  // namespace xr::opencl
