// The public Histogram (xreduce/cuda/histogram.hpp): a plan from the dispatch layer, enqueued on
// the caller's stream over the caller's memory.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <utility>

#include "current_device.hpp"
#include "histogram_table.hpp"
#include "library_policy.hpp"
#include "xreduce/cuda/histogram.hpp"
#include "xreduce/error.hpp"

namespace xr::cuda {

struct Histogram::State {
  std::string variant;
  HistogramDesc desc;       // checked
  histogram::Plan plan;     // when desc.count > 0
  CheckedOperands checked;  // the last call's operands, whose checks passed
};

namespace {

[[noreturn]] void refuse(ErrorCategory category, const std::string& what) {
  throw Error(category, "xreduce::cuda: " + what);
}

void check_bins(const histogram::Spec& e, std::uint32_t bins) {
  if (std::string why = histogram_bins_reason(e, bins); !why.empty())
    refuse(ErrorCategory::unsupported, std::string(e.id) + " " + why);
}

// The variant `desc` asks for by id, checked without a device; nullptr for the library's choice.
const histogram::Spec* requested(const HistogramDesc& desc) {
  if (desc.variant.empty()) return nullptr;
  const histogram::Spec* e = find_histogram(desc.variant);
  if (!e) refuse(ErrorCategory::usage, "unknown histogram variant '" + desc.variant + "'");
  check_bins(*e, desc.levels.bins);
  return e;
}

// The library's choice: the first in its order that runs on the device and counts `bins` bins.
const histogram::Spec& chosen(const histogram::Spec* asked, std::uint32_t bins,
                              const DeviceLimits& device) {
  if (asked) {
    if (std::string why = histogram_unsupported_reason(*asked, device); !why.empty())
      refuse(ErrorCategory::unsupported, std::string(asked->id) + " " + why);
    return *asked;
  }
  for (std::string_view id : library_order(Primitive::histogram)) {
    const histogram::Spec& e = *find_histogram(id);
    if (histogram_unsupported_reason(e, device).empty() && histogram_bins_reason(e, bins).empty())
      return e;
  }
  refuse(ErrorCategory::unsupported,
         "no histogram variant counts " + std::to_string(bins) + " bins on this device");
}

// As the Sort's: the request first, then the device.
std::unique_ptr<Histogram::State> plan(const HistogramDesc& desc, const DeviceLimits* known,
                                       const histogram::Tuning& tuning) {
  check_histogram_desc(desc);
  const histogram::Spec* asked = requested(desc);
  const DeviceLimits& device = known ? *known : current_device_limits();
  const histogram::Spec& e = chosen(asked, desc.levels.bins, device);
  auto state = std::make_unique<Histogram::State>();
  state->variant = std::string(e.id);
  state->desc = desc;
  if (desc.count > 0) state->plan = make_histogram_plan(e.kernel, desc, device, tuning);
  return state;
}

}  // namespace

Histogram::Histogram(const HistogramDesc& desc)
    : state_(own_state(plan(desc, nullptr, histogram::Tuning{}))) {}

Histogram::Histogram(const HistogramDesc& desc, const DeviceLimits& device)
    : state_(own_state(plan(desc, &device, histogram::Tuning{}))) {}

Histogram::Histogram(const HistogramDesc& desc, const DeviceLimits& device,
                     const histogram::Tuning& tuning)
    : state_(own_state(plan(desc, &device, tuning))) {}

const std::string& Histogram::variant() const {
  return state_->variant;
}

std::size_t Histogram::temp_storage_bytes() const {
  return state_->desc.count ? state_->plan.temp_bytes : 0;
}

std::size_t Histogram::temp_storage_bytes(const HistogramDesc& desc) {
  return Histogram(desc).temp_storage_bytes();
}

namespace {

// The call's arrays checked (the samples it reads, the counts, the temp storage, the count's
// word), then its launches; a call of no samples only zeroes an overwritten histogram.
void enqueue_call(Histogram::State& s, std::string_view call_name, const histogram::Call& call,
                  cudaStream_t stream, const void* samples, void* counts, void* temp) {
  const HistogramDesc& d = s.desc;
  const bool any = call.count ? d.count > 0 : call.n > 0;
  const std::size_t sample_bytes = any ? call.n * size_of(d.dtype) : 0;
  const std::size_t counts_bytes = histogram_counts_bytes(d.levels);
  const std::uintptr_t counter_bytes = d.levels.counts == HistogramCounts::u64 ? 8 : 4;
  check_operands(s.checked, call_name,
                 {{samples, sample_bytes, size_of(d.dtype), "samples"},
                  {counts, counts_bytes, counter_bytes, "counts"},
                  {temp, any ? s.plan.temp_bytes : 0, 256, "temp", " (temp_storage_bytes())"},
                  {call.count, any && call.count ? 4u : 0u, 4, "count"}});
  if (any) return enqueue_histogram(s.plan, call, {samples, counts, temp}, stream);
  if (call.output == HistogramOutput::overwrite)
    XR_CUDA_CHECK(cudaMemsetAsync(counts, 0, counts_bytes, stream));
}

}  // namespace

void Histogram::enqueue(cudaStream_t stream, const void* samples, void* counts, void* temp,
                        HistogramOutput output) {
  enqueue(stream, state_->desc.count, samples, counts, temp, output);
}

void Histogram::enqueue(cudaStream_t stream, std::uint64_t count, const void* samples, void* counts,
                        void* temp, HistogramOutput output) {
  if (count > state_->desc.count)
    refuse(ErrorCategory::usage, "Histogram::enqueue: " + std::to_string(count) +
                                     " samples, and this Histogram was made for at most " +
                                     std::to_string(state_->desc.count));
  enqueue_call(*state_, "Histogram::enqueue", {.n = count, .output = output}, stream, samples,
               counts, temp);
}

void Histogram::enqueue_indirect(cudaStream_t stream, const std::uint32_t* count,
                                 const void* samples, void* counts, void* temp,
                                 HistogramOutput output) {
  if (state_->desc.count > 0)
    if (const std::string why = histogram_counted_reason(state_->plan); !why.empty())
      refuse(ErrorCategory::unsupported,
             "Histogram::enqueue_indirect: " + state_->variant + " " + why);
  enqueue_call(*state_, "Histogram::enqueue_indirect",
               {.n = state_->desc.count, .count = count, .output = output}, stream, samples, counts,
               temp);
}

std::string Histogram::describe() const {
  if (!state_->desc.count)
    return state_->variant + ": 0 samples, no launch (an overwriting call zeroes the counts)";
  return state_->variant + ": " + state_->plan.describe();
}

std::string Histogram::tuning() const {
  return state_->desc.count ? state_->plan.tuning : std::string();
}

std::vector<std::string> histogram_variants(DType t) {
  std::vector<std::string> ids;
  if (std::find(std::begin(kHistogramSampleDTypes), std::end(kHistogramSampleDTypes), t) ==
      std::end(kHistogramSampleDTypes))
    return ids;  // every variant takes the same six sample types
  const DeviceLimits& device = current_device_limits();
  for (std::string_view id : library_order(Primitive::histogram))
    if (histogram_unsupported_reason(*find_histogram(id), device).empty()) ids.emplace_back(id);
  return ids;
}

}  // namespace xr::cuda
