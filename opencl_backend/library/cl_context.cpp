#include "cl_context.hpp"

#include <algorithm>
#include <iterator>

#include "cl_check.hpp"
#include "cl_reduce_table.hpp"
#include "cl_requirements.hpp"
#include "cl_scan_table.hpp"
#include "xreduce/call_check.hpp"
#include "xreduce/error.hpp"
#include "xreduce/library_variants.hpp"

namespace xr::opencl {

cl_platform_id platform_of(cl_device_id device) {
  cl_platform_id platform = nullptr;
  XR_CL_CHECK(clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr));
  return platform;
}

namespace {

std::unique_ptr<ContextState> context_state(cl_context context, cl_device_id device,
                                            OpenClKnobs knobs) {
  if (!context || !device)
    throw Error(ErrorCategory::usage, "xreduce::opencl: a null cl_context or cl_device_id");
  auto state = std::make_unique<ContextState>();
  state->context = context;
  state->facts = query_facts(platform_of(device), device, 0, knobs.facts_options());
  state->knobs = std::move(knobs);
  state->programs =
      std::make_unique<Programs>(context, state->facts, state->knobs.program_options());
  return state;
}

// The histogram ids the device runs over samples of `t`, fastest first as the ladder's design
// predicts (fewer, less contended atomics and wider loads first; unmeasured, CUDA's order): none
// for a type no histogram takes.
std::vector<std::string> histogram_variants(const DeviceFacts& f, DType t) {
  std::vector<std::string> out;
  if (std::find(std::begin(kHistogramSampleDTypes), std::end(kHistogramSampleDTypes), t) ==
      std::end(kHistogramSampleDTypes))
    return out;
  for (std::string_view id : {"fast/replicated", "subgroup/aggregated", "atomic/aggregated",
                              "atomic/coarsened", "atomic/privatized", "atomic/global"})
    if (variant_unsupported_reason(Primitive::histogram, id, f).empty()) out.emplace_back(id);
  return out;
}

}  // namespace

Context::Context(cl_context context, cl_device_id device)
    : state_(own_state(context_state(context, device, OpenClKnobs{}))) {}

Context::Context(std::unique_ptr<ContextState> state) : state_(own_state(std::move(state))) {}

Context make_context(cl_context context, cl_device_id device, OpenClKnobs knobs) {
  return Context(context_state(context, device, std::move(knobs)));
}

void require_knobs(const ContextState& state) {
  if (!state.knobs.error.empty()) throw Error(ErrorCategory::usage, state.knobs.error);
}

const std::string& Context::device_name() const {
  return state_->facts.info.name;
}

std::vector<std::string> Context::variants(Primitive primitive, DType t) const {
  const DeviceFacts& f = state_->facts;
  std::vector<std::string> out;
  if (!dtype_missing(t, f).empty()) return out;
  if (primitive == Primitive::reduce) {
    // Fastest first: the single pass, then the ladder from its top.
    for (std::string_view id : {"fast/single-pass", "fast/vectorized"})
      if (variant_unsupported_reason(primitive, id, f).empty()) out.emplace_back(id);
    return out;
  }
  if (primitive == Primitive::histogram) return histogram_variants(f, t);
  const auto fastest =
      primitive == Primitive::scan
          ? std::vector<std::string_view>{"fast/decoupled-lookback", "fast/reduce-then-scan"}
          : std::vector<std::string_view>{"radix/onesweep", "radix/reduce-then-scan",
                                          "bitonic/smem"};
  for (std::string_view id : fastest)
    if (variant_unsupported_reason(primitive, id, f).empty()) out.emplace_back(id);
  return out;
}

std::string variant_unsupported_reason(Primitive primitive, std::string_view id,
                                       const DeviceFacts& facts) {
  return Variants::unsupported_reason(primitive, id, facts, [](const ScanSpec& s) { return s; });
}

ContextState& state_of(const Context& context) {
  return *context.state_;
}

}  // namespace xr::opencl
