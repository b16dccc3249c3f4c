// The public Reduce (xreduce/cuda/reduce.hpp): a plan from the dispatch layer, enqueued on the
// caller's stream over the caller's memory.
#include <utility>

#include "current_device.hpp"
#include "library_policy.hpp"
#include "reduce_table.hpp"
#include "xreduce/cuda/reduce.hpp"
#include "xreduce/error.hpp"

namespace xr::cuda {

struct Reduce::State {
  std::string variant;
  ReducePlan plan;
  CheckedOperands checked;  // the last call's operands, whose checks passed
};

namespace {

[[noreturn]] void refuse(ErrorCategory category, const std::string& what) {
  throw Error(category, "xreduce::cuda: " + what);
}

bool in_place_runs(DType t) {
  return t == DType::i32 || t == DType::u32 || t == DType::f32;
}

// The variant `desc` asks for by id, checked without a device; nullptr for the library's choice.
const ReduceEntry* requested(const ReduceDesc& desc) {
  if (desc.count == 0)
    refuse(ErrorCategory::usage, "a reduce of 0 elements: its result is the identity, no launch");
  if (desc.variant.empty()) return nullptr;
  const ReduceEntry* e = find_reduce(desc.variant);
  if (!e) refuse(ErrorCategory::usage, "unknown reduce variant '" + desc.variant + "'");
  if (e->in_place && !desc.overwrite_input)
    refuse(ErrorCategory::usage, desc.variant +
                                     " writes its partials into the input: set "
                                     "ReduceDesc::overwrite_input to run it");
  if (e->in_place && !in_place_runs(desc.dtype))
    refuse(ErrorCategory::unsupported,
           desc.variant + " keeps its partials in the input: i32, u32 and f32 only, not " +
               std::string(to_string(desc.dtype)));
  return e;
}

const ReduceEntry& chosen(const ReduceEntry* asked, const DeviceLimits& device) {
  if (asked) {
    if (std::string why = reduce_unsupported_reason(*asked, device); !why.empty())
      refuse(ErrorCategory::unsupported, std::string(asked->id) + " " + why);
    return *asked;
  }
  for (std::string_view id : library_order(Primitive::reduce)) {
    const ReduceEntry& e = *find_reduce(id);
    if (!e.in_place && reduce_unsupported_reason(e, device).empty()) return e;
  }
  refuse(ErrorCategory::unsupported, "no reduce variant runs on this device");
}

// The request is checked before the device is asked for its limits: a wrong desc is usage,
// with or without a GPU.
std::unique_ptr<Reduce::State> plan(const ReduceDesc& desc, const DeviceLimits* known) {
  const ReduceEntry* asked = requested(desc);
  const DeviceLimits& device = known ? *known : current_device_limits();
  const ReduceEntry& e = chosen(asked, device);
  auto state = std::make_unique<Reduce::State>();
  state->variant = std::string(e.id);
  state->plan = make_reduce_plan(e.kernel, desc.dtype, desc.op, desc.count, device);
  return state;
}

}  // namespace

Reduce::Reduce(const ReduceDesc& desc) : state_(own_state(plan(desc, nullptr))) {}

Reduce::Reduce(const ReduceDesc& desc, const DeviceLimits& device)
    : state_(own_state(plan(desc, &device))) {}

const std::string& Reduce::variant() const {
  return state_->variant;
}

std::size_t Reduce::scratch_size() const {
  return state_->plan.scratch_bytes;
}

void Reduce::enqueue(cudaStream_t stream, const void* in, void* out, void* scratch) const {
  const ReducePlan& plan = state_->plan;
  check_operands(state_->checked, "Reduce::enqueue",
                 {{in, plan.n * size_of(plan.dtype), 16, "in"},
                  {out, size_of(plan.dtype), size_of(plan.dtype), "out"},
                  {scratch, plan.scratch_bytes, 256, "scratch", " (scratch_size())"}});
  // The in-place kernels write into `in`: ReduceDesc::overwrite_input said the caller allows it.
  enqueue_reduce(plan, {const_cast<void*>(in), scratch, out}, stream);
}

std::string Reduce::describe() const {
  return state_->plan.describe();
}

std::vector<std::string> reduce_variants(DType t) {
  (void)t;  // every variant that keeps the input claims every dtype
  const DeviceLimits& device = current_device_limits();
  std::vector<std::string> ids;
  for (std::string_view id : library_order(Primitive::reduce)) {
    const ReduceEntry& e = *find_reduce(id);
    if (!e.in_place && reduce_unsupported_reason(e, device).empty()) ids.emplace_back(id);
  }
  return ids;
}

}  // namespace xr::cuda
