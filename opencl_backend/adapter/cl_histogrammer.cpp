#include "cl_histogrammer.hpp"

#include <optional>
#include <string>
#include <utility>

#include "cl_array.hpp"
#include "cl_internal.hpp"
#include "cl_timed.hpp"
#include "xreduce/device_variant.hpp"
#include "xreduce/histogram_request.hpp"
#include "xreduce/opencl/histogram.hpp"

namespace xr::opencl {
namespace {

// Enqueues the workspace's Histogram over the call's buffers, timed by the queue's events.
class ClHistogrammer final : public DeviceHistogrammer {
 public:
  ClHistogrammer(std::shared_ptr<Device> device, std::string_view id)
      : DeviceHistogrammer(Variants::info(Primitive::histogram, id)), device_(std::move(device)) {}

  // The plan in words: the path it took (local sub-histograms, copies in global memory, the
  // fallback to global atomics past the local memory).
  std::string diagnostics() const override {
    return workspace_ ? workspace_->histogram.describe() : std::string();
  }

 private:
  // One Histogram of a request's desc, its scratch and, for the indirect calls, its count in a
  // device word (made on the first such call).
  struct Workspace {
    HistogramDesc desc;
    Histogram histogram;
    MemOwner scratch;  // empty where the plan takes none
    std::optional<MemOwner> count;
  };

  // Every array is this device's, and the workspace is made, n = 0 included: the library's
  // Histogram refuses what the device cannot run.
  void prepare(const HistogramRequest& r) override {
    device_array(r.samples(), *device_);
    device_array(r.counts(), *device_);
    workspace(r);
  }

  Timing run(const HistogramRequest& r, int calls) override {
    Workspace& w = workspace(r);
    const HistogramBuffers buffers{.samples = device_array(r.samples(), *device_).buffer(),
                                   .counts = device_array(r.counts(), *device_).buffer(),
                                   .scratch = w.scratch.get()};
    return run_timed(*device_, calls, [&](auto wait, cl_event* first, cl_event* last) {
      if (r.count_on_device())
        w.histogram.enqueue_indirect(device_->queue(), w.count->get(), 0, buffers,
                                     HistogramOutput::overwrite, wait, first, last);
      else
        w.histogram.enqueue(device_->queue(), buffers, HistogramOutput::overwrite, wait, first,
                            last);
    });
  }

  std::vector<CompiledPass> compiled(const HistogramRequest& request) override {
    return workspace(request).histogram.diagnostics().compiled();
  }
  std::string tuning(const HistogramRequest& request) override {
    return std::string(workspace(request).histogram.diagnostics().tuning());
  }

  // The workspace of this request's desc: a new one only where the desc changes.
  Workspace& workspace(const HistogramRequest& request) {
    const HistogramDesc& desc = request.desc();
    if (!workspace_ || workspace_->desc != desc) {
      workspace_.reset();
      Histogram histogram(device_->library(), desc);
      const std::uint64_t bytes = histogram.scratch_size();
      MemOwner scratch = bytes ? make_buffer(*device_, bytes) : MemOwner();
      workspace_.emplace(Workspace{desc, std::move(histogram), std::move(scratch), std::nullopt});
    }
    if (request.count_on_device() && !workspace_->count)
      workspace_->count.emplace(count_word(static_cast<std::uint32_t>(desc.count)));
    return *workspace_;
  }

  // A device word holding `count`, written before it returns: what an indirect call reads.
  MemOwner count_word(std::uint32_t count) {
    MemOwner word = make_buffer(*device_, sizeof count);
    XR_CL_CHECK(clEnqueueFillBuffer(device_->queue(), word.get(), &count, sizeof count, 0,
                                    sizeof count, 0, nullptr, nullptr));
    XR_CL_CHECK(clFinish(device_->queue()));
    return word;
  }

  // Declared first, destroyed last: the workspace's buffers are the device's.
  std::shared_ptr<Device> device_;
  std::optional<Workspace> workspace_;
};

}  // namespace

std::unique_ptr<Histogrammer> make_histogrammer(std::shared_ptr<Device> device,
                                                std::string_view id) {
  return std::make_unique<ClHistogrammer>(std::move(device), id);
}

}  // namespace xr::opencl
