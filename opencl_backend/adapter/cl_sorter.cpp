#include "cl_sorter.hpp"

#include "cl_array.hpp"
#include "cl_timed.hpp"
#include "xreduce/opencl/sort.hpp"
#include "xreduce/sort_reference.hpp"
#include "xreduce/workspace_sorter.hpp"

namespace xr::opencl {
namespace {

// Enqueues the workspace's Sort over the call's buffers, timed by the queue's events.
class ClSorter final : public WorkspaceSorter<Device, Sort, MemOwner> {
 public:
  ClSorter(std::shared_ptr<Device> device, std::string_view id)
      : WorkspaceSorter(Variants::info(Primitive::sort, id), "n = 0: nothing is launched",
                        std::move(device)) {}

 private:
  Sort make_sort(const SortDesc& desc) override { return Sort(device_->library(), desc); }
  MemOwner zeroed_scratch(const Sort& sort) override {
    MemOwner scratch = make_buffer(*device_, sort.scratch_size());
    sort.enqueue_scratch_init(device_->queue(), scratch.get());
    XR_CL_CHECK(clFinish(device_->queue()));
    return scratch;
  }

  MemOwner count_word(std::uint32_t count) override {
    MemOwner word = make_buffer(*device_, sizeof count);
    XR_CL_CHECK(clEnqueueFillBuffer(device_->queue(), word.get(), &count, sizeof count, 0,
                                    sizeof count, 0, nullptr, nullptr));
    XR_CL_CHECK(clFinish(device_->queue()));
    return word;
  }

  Timing run(const SortRequest& r, int calls) override {
    Workspace& w = workspace(r);
    const SortBuffers buffers{
        .keys_in = device_array(r.keys(), *device_).buffer(),
        .keys_out = device_array(r.sorted_keys(), *device_).buffer(),
        .values_in = r.values() ? device_array(*r.values(), *device_).buffer() : nullptr,
        .values_out =
            r.sorted_values() ? device_array(*r.sorted_values(), *device_).buffer() : nullptr,
        .scratch = w.scratch.get()};
    const Timing t = run_timed(*device_, calls, [&](auto wait, cl_event* first, cl_event* last) {
      if (r.count_on_device())
        w.sort.enqueue_indirect(device_->queue(), w.count->get(), 0, buffers, wait, first, last);
      else
        w.sort.enqueue(device_->queue(), buffers, wait, first, last);
    });
    if (const Diagnostics d = w.sort.diagnostics(); d.tiles() > 0)  // onesweep counts fallbacks
      fallbacks_.add(d.fallbacks(device_->queue(), w.scratch.get()), d.tiles(), calls);
    return t;
  }
};

}  // namespace

std::unique_ptr<Sorter> make_sorter(std::shared_ptr<Device> device, std::string_view id) {
  return std::make_unique<ClSorter>(std::move(device), id);
}

}  // namespace xr::opencl
