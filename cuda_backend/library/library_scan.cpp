// The public Scan (xreduce/cuda/scan.hpp): a plan from the dispatch layer, enqueued on the
// caller's stream over the caller's memory, with its count of calls (the look-back's epochs).
#include <utility>

#include "current_device.hpp"
#include "library_policy.hpp"
#include "scan_table.hpp"
#include "xreduce/cuda/scan.hpp"
#include "xreduce/error.hpp"

namespace xr::cuda {

struct Scan::State {
  std::string variant;
  bool deterministic = true;
  std::size_t count = 0;
  ScanPlan plan;            // when count > 0
  std::uint64_t calls = 0;  // enqueued so far: ScanBuffers::launch
  CheckedOperands checked;  // the last call's operands, whose checks passed
};

namespace {

[[noreturn]] void refuse(ErrorCategory category, const std::string& what) {
  throw Error(category, "xreduce::cuda: " + what);
}

// The variant `desc` asks for by id, checked without a device; nullptr for the library's choice.
const ScanEntry* requested(const ScanDesc& desc) {
  if (desc.variant.empty()) return nullptr;
  const ScanEntry* e = find_scan(desc.variant);
  if (!e) refuse(ErrorCategory::usage, "unknown scan variant '" + desc.variant + "'");
  return e;
}

const ScanEntry& chosen(const ScanEntry* asked, const DeviceLimits& device) {
  if (asked) {
    if (std::string why = scan_unsupported_reason(*asked, device); !why.empty())
      refuse(ErrorCategory::unsupported, std::string(asked->id) + " " + why);
    return *asked;
  }
  for (std::string_view id : library_order(Primitive::scan)) {
    const ScanEntry& e = *find_scan(id);
    if (scan_unsupported_reason(e, device).empty()) return e;
  }
  refuse(ErrorCategory::unsupported, "no scan variant runs on this device");
}

// As the Reduce's: the request first, then the device.
std::unique_ptr<Scan::State> plan(const ScanDesc& desc, const DeviceLimits* known,
                                  const ScanTuning& tuning) {
  const ScanEntry* asked = requested(desc);
  const DeviceLimits& device = known ? *known : current_device_limits();
  const ScanEntry& e = chosen(asked, device);
  auto state = std::make_unique<Scan::State>();
  state->variant = std::string(e.id);
  state->deterministic = e.deterministic;
  state->count = desc.count;
  if (desc.count > 0)
    state->plan =
        make_scan_plan(e.kernel, desc.dtype, desc.op, desc.count, device, tuning.one_group_max);
  return state;
}

}  // namespace

Scan::Scan(const ScanDesc& desc) : state_(own_state(plan(desc, nullptr, ScanTuning{}))) {}

Scan::Scan(const ScanDesc& desc, const DeviceLimits& device, const ScanTuning& tuning)
    : state_(own_state(plan(desc, &device, tuning))) {}

const std::string& Scan::variant() const {
  return state_->variant;
}

bool Scan::deterministic() const {
  return state_->deterministic;
}

std::size_t Scan::scratch_size() const {
  return state_->count ? state_->plan.scratch_bytes : 0;
}

void Scan::enqueue(cudaStream_t stream, ScanKind kind, const void* in, void* out, void* scratch) {
  if (state_->count == 0) return;
  const ScanPlan& plan = state_->plan;
  const std::size_t bytes = plan.n * size_of(plan.dtype);
  check_operands(state_->checked, "Scan::enqueue",
                 {{in, bytes, 16, "in"},
                  {out, bytes, 16, "out"},
                  {scratch, plan.scratch_bytes, 256, "scratch", " (scratch_size())"}});
  enqueue_scan(plan, {in, out, scratch, state_->calls}, kind, stream);
  ++state_->calls;
}

std::string Scan::describe() const {
  return state_->count ? state_->plan.describe() : "0 elements: no launch";
}

std::vector<std::string> scan_variants(DType t) {
  (void)t;  // every scan variant claims every dtype
  const DeviceLimits& device = current_device_limits();
  std::vector<std::string> ids;
  for (std::string_view id : library_order(Primitive::scan))
    if (scan_unsupported_reason(*find_scan(id), device).empty()) ids.emplace_back(id);
  return ids;
}

}  // namespace xr::cuda
