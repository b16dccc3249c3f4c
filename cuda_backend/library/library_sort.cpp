// The public Sort (xreduce/cuda/sort.hpp): a plan from the dispatch layer, enqueued on the
// caller's stream over the caller's memory.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "current_device.hpp"
#include "library_policy.hpp"
#include "sort_table.hpp"
#include "xreduce/cuda/sort.hpp"
#include "xreduce/error.hpp"

namespace xr::cuda {

struct Sort::State {
  std::string variant;
  std::uint64_t count = 0;
  sort::Plan plan;          // when count > 0
  CheckedOperands checked;  // the last call's operands, whose checks passed
};

namespace {

[[noreturn]] void refuse(ErrorCategory category, const std::string& what) {
  throw Error(category, "xreduce::cuda: " + what);
}

void check_count(const sort::Spec& e, std::uint64_t count) {
  if (std::string why = sort_count_reason(e, count); !why.empty())
    refuse(ErrorCategory::unsupported, std::string(e.id) + " " + why);
}

// The variant `desc` asks for by id, checked without a device; nullptr for the library's choice.
const sort::Spec* requested(const SortDesc& desc) {
  if (desc.variant.empty()) return nullptr;
  const sort::Spec* e = find_sort(desc.variant);
  if (!e) refuse(ErrorCategory::usage, "unknown sort variant '" + desc.variant + "'");
  check_count(*e, desc.count);
  return e;
}

// The library's choice: the first in its order that runs on the device and sorts `count` keys.
const sort::Spec& chosen(const sort::Spec* asked, std::uint64_t count, const DeviceLimits& device) {
  if (asked) {
    if (std::string why = sort_unsupported_reason(*asked, device); !why.empty())
      refuse(ErrorCategory::unsupported, std::string(asked->id) + " " + why);
    return *asked;
  }
  for (std::string_view id : library_order(Primitive::sort)) {
    const sort::Spec& e = *find_sort(id);
    if (sort_unsupported_reason(e, device).empty() && sort_count_reason(e, count).empty()) return e;
  }
  refuse(ErrorCategory::unsupported,
         "no sort variant sorts " + std::to_string(count) + " keys on this device");
}

// As the Scan's: the request first, then the device.
std::unique_ptr<Sort::State> plan(const SortDesc& given, const DeviceLimits* known,
                                  const sort::Tuning& tuning) {
  const SortDesc desc = check_sort_desc(given);
  const sort::Spec* asked = requested(desc);
  const DeviceLimits& device = known ? *known : current_device_limits();
  const sort::Spec& e = chosen(asked, desc.count, device);
  auto state = std::make_unique<Sort::State>();
  state->variant = std::string(e.id);
  state->count = desc.count;
  if (desc.count > 0) state->plan = make_sort_plan(e.kernel, desc, device, tuning);
  return state;
}

}  // namespace

Sort::Sort(const SortDesc& desc) : state_(own_state(plan(desc, nullptr, sort::Tuning{}))) {}

Sort::Sort(const SortDesc& desc, const DeviceLimits& device, const sort::Tuning& tuning)
    : state_(own_state(plan(desc, &device, tuning))) {}

const std::string& Sort::variant() const {
  return state_->variant;
}

std::size_t Sort::temp_storage_bytes() const {
  return state_->count ? state_->plan.temp_bytes : 0;
}

std::size_t Sort::temp_storage_bytes(const SortDesc& desc) {
  return Sort(desc).temp_storage_bytes();
}

namespace {

// The call's arrays checked (`keys` keys and values, the temp storage), then its launches.
void enqueue_call(Sort::State& s, std::string_view call_name, const sort::Call& call,
                  cudaStream_t stream, const void* keys_in, void* keys_out, const void* values_in,
                  void* values_out, void* temp) {
  const sort::Plan& plan = s.plan;
  const bool pairs = plan.desc.pairs();
  const std::size_t key_bytes = call.n * size_of(plan.desc.dtype);
  const std::size_t values_bytes = call.n * value_bytes(plan.desc.values);
  // The count's word is checked where there is one (0 bytes: not read).
  check_operands(s.checked, call_name,
                 {{keys_in, key_bytes, 16, "keys_in"},
                  {keys_out, key_bytes, 16, "keys_out"},
                  {values_in, values_bytes, 16, "values_in"},
                  {values_out, values_bytes, 16, "values_out"},
                  {temp, plan.temp_bytes, 256, "temp", " (temp_storage_bytes())"},
                  {call.count, call.count ? 4u : 0u, 4, "count"}});
  enqueue_sort(plan, call,
               {keys_in, keys_out, pairs ? values_in : nullptr, pairs ? values_out : nullptr, temp},
               stream);
}

}  // namespace

void Sort::enqueue(cudaStream_t stream, const void* keys_in, void* keys_out, const void* values_in,
                   void* values_out, void* temp) {
  enqueue(stream, state_->count, keys_in, keys_out, values_in, values_out, temp);
}

void Sort::enqueue(cudaStream_t stream, std::uint64_t count, const void* keys_in, void* keys_out,
                   const void* values_in, void* values_out, void* temp) {
  if (count > state_->count)
    refuse(ErrorCategory::usage, "Sort::enqueue: " + std::to_string(count) +
                                     " keys, and this Sort was made for at most " +
                                     std::to_string(state_->count));
  if (count == 0) return;
  enqueue_call(*state_, "Sort::enqueue", {.n = count}, stream, keys_in, keys_out, values_in,
               values_out, temp);
}

void Sort::enqueue_indirect(cudaStream_t stream, const std::uint32_t* count, const void* keys_in,
                            void* keys_out, const void* values_in, void* values_out, void* temp) {
  if (state_->count == 0) return;  // a Sort of no keys sorts none, whatever the count
  if (const std::string why = sort_counted_reason(state_->plan); !why.empty())
    refuse(ErrorCategory::unsupported, "Sort::enqueue_indirect: " + state_->variant + " " + why);
  enqueue_call(*state_, "Sort::enqueue_indirect", {.n = state_->count, .count = count}, stream,
               keys_in, keys_out, values_in, values_out, temp);
}

std::string Sort::describe() const {
  if (!state_->count) return state_->variant + ": 0 keys, no launch";
  return state_->variant + ": " + state_->plan.describe();
}

std::string Sort::tuning() const {
  return state_->count ? state_->plan.tuning : std::string();
}

std::vector<std::string> sort_variants(DType t) {
  (void)t;  // every sort variant sorts keys of every dtype
  const DeviceLimits& device = current_device_limits();
  std::vector<std::string> ids;
  for (std::string_view id : library_order(Primitive::sort))
    if (sort_unsupported_reason(*find_sort(id), device).empty()) ids.emplace_back(id);
  return ids;
}

}  // namespace xr::cuda
