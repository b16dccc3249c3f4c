#include "cl_sorter.hpp"

#include "cl_array.hpp"
#include "cl_timed.hpp"
#include "xreduce/opencl/sort.hpp"
#include "xreduce/sort_reference.hpp"
#include "xreduce/workspace_sorter.hpp"

namespace xr::opencl {
namespace {

// Enqueues the workspace's Sort over the call's buffers, timed by the queue's events.
class ClSorter final : public WorkspaceSorter<Device, SortSpec, Sort, MemOwner> {
 public:
  ClSorter(std::shared_ptr<Device> device, const SortSpec& spec)
      : WorkspaceSorter(Variants::info(Primitive::sort, spec.id()), "n = 0: nothing is launched",
                        std::move(device), spec) {}

 private:
  Sort make_sort(const SortDesc& desc) override { return Sort(device_->library(), desc); }
  MemOwner zeroed_scratch(const Sort& sort) override {
    MemOwner scratch = make_buffer(*device_, sort.scratch_size());
    sort.enqueue_scratch_init(device_->queue(), scratch.get());
    XR_CL_CHECK(clFinish(device_->queue()));
    return scratch;
  }

  void prepare(const SortArrays& a) override {
    require_own_arrays(a);
    require_dtype(spec_.id(), a.keys.dtype(), device_->facts());
  }

  Timing run(const SortArrays& a, const SortCall& call, int calls) override {
    Workspace& w = workspace(a, call);
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
};

}  // namespace

std::unique_ptr<Sorter> make_sorter(std::shared_ptr<Device> device, const SortSpec& spec) {
  return std::make_unique<ClSorter>(std::move(device), spec);
}

}  // namespace xr::opencl
