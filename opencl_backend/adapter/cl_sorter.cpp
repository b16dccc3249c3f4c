#include "cl_sorter.hpp"

#include <optional>

#include "cl_array.hpp"
#include "cl_timed.hpp"
#include "xreduce/device_variant.hpp"
#include "xreduce/opencl/sort.hpp"
#include "xreduce/sort_fallbacks.hpp"
#include "xreduce/sort_reference.hpp"

namespace xr::opencl {
namespace {

// The library's Sort of one call's description and its scratch, zeroed once: a new one only when
// the description changes.
struct SortWorkspace {
  SortWorkspace(Device& device, const SortDesc& desc)
      : desc(desc),
        sort(device.library(), desc),
        scratch(make_buffer(device, sort.scratch_size())) {
    sort.enqueue_scratch_init(device.queue(), scratch.get());
    XR_CL_CHECK(clFinish(device.queue()));
  }
  SortDesc desc;
  Sort sort;
  MemOwner scratch;
};

class ClSorter final : public DeviceSorter {
 public:
  ClSorter(std::shared_ptr<Device> device, const SortSpec& spec)
      : DeviceSorter(Variants::info(Primitive::sort, spec.id()), "n = 0: nothing is launched"),
        device_(std::move(device)),
        spec_(spec) {}

  std::string diagnostics() const override {
    return spec_.family == SortFamily::onesweep ? fallbacks_.describe() : std::string();
  }

 private:
  void prepare(const SortArrays& a) override {
    device_array(a.keys, *device_);
    device_array(a.sorted_keys, *device_);
    if (a.values) device_array(*a.values, *device_);
    if (a.sorted_values) device_array(*a.sorted_values, *device_);
    require_dtype(spec_.id(), a.keys.dtype(), device_->facts());
  }

  Timing run(const SortArrays& a, const SortCall& call, int calls) override {
    SortWorkspace& w = workspace(a, call);
    const SortBuffers buffers{
        .keys_in = device_array(a.keys, *device_).buffer(),
        .keys_out = device_array(a.sorted_keys, *device_).buffer(),
        .values_in = a.values ? device_array(*a.values, *device_).buffer() : nullptr,
        .values_out = a.sorted_values ? device_array(*a.sorted_values, *device_).buffer() : nullptr,
        .scratch = w.scratch.get()};
    const Timing t = run_timed(*device_, calls, [&](auto wait, cl_event* first, cl_event* last) {
      w.sort.enqueue(device_->queue(), buffers, wait, first, last);
    });
    if (spec_.family == SortFamily::onesweep)
      fallbacks_.add(w.sort.fallbacks(device_->queue(), w.scratch.get()), w.sort.tiles(), calls);
    return t;
  }
  std::vector<CompiledPass> compiled(const SortArrays& a, const SortCall& call) override {
    return workspace(a, call).sort.compiled();
  }

  SortWorkspace& workspace(const SortArrays& a, const SortCall& call) {
    const SortDesc desc = desc_of(a, call);
    if (!workspace_ || workspace_->desc != desc) {
      workspace_.reset();
      workspace_.emplace(*device_, desc);
      fallbacks_.reset();  // diagnostics() counts per workspace
    }
    return *workspace_;
  }

  std::shared_ptr<Device> device_;
  const SortSpec& spec_;
  std::optional<SortWorkspace> workspace_;
  SortFallbacks fallbacks_;
};

}  // namespace

std::unique_ptr<Sorter> make_sorter(std::shared_ptr<Device> device, const SortSpec& spec) {
  return std::make_unique<ClSorter>(std::move(device), spec);
}

}  // namespace xr::opencl
