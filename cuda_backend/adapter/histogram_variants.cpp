// The tool's CUDA histogrammer: any id of the library's histogram table
// (library/histogram_table.cpp), planned with its temporary storage once per (dtype, n, levels)
// through the library's Histogram, every launch of a call timed between two CUDA events.
#include <iterator>
#include <optional>
#include <string>

#include "array.hpp"
#include "compiled_call.hpp"
#include "histogram_dispatch.hpp"
#include "histogram_table.hpp"
#include "timing.hpp"
#include "variants.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/cuda/histogram.hpp"
#include "xreduce/device_variant.hpp"
#include "xreduce/error.hpp"
#include "xreduce/units.hpp"

namespace xr::cuda {
namespace {

VariantInfo histogram_info_of(const histogram::Spec& e) {
  VariantInfo info =
      catalog_variant(Primitive::histogram, e.id,
                      {std::begin(kHistogramSampleDTypes), std::end(kHistogramSampleDTypes)}, {});
  info.max_bins = e.max_bins;
  // CUB takes its count from the host.
  info.count_on_device = e.kernel != histogram::Kernel::lib_cub;
  if (!e.requirement.empty()) info.requirements.emplace_back(e.requirement);
  return info;
}

class CudaHistogrammer final : public DeviceHistogrammer {
 public:
  CudaHistogrammer(const histogram::Spec& entry, std::shared_ptr<Context> ctx)
      : DeviceHistogrammer(histogram_info_of(entry)), ctx_((ctx->activate(), std::move(ctx))) {}

  // The plan in words: which path it took (shared memory or copies in global memory, the
  // fallback to global atomics past shared memory, lib/cub's offset width).
  std::string diagnostics() const override {
    return histogram_ ? histogram_->describe() : std::string();
  }

 private:
  struct Operands {
    const void* samples;
    void* counts;
  };

  // Every array is this device's, and the plan is made, n = 0 included: the library refuses
  // what the device cannot run.
  void prepare(const HistogramRequest& r) override {
    device_array(r.samples(), *ctx_);
    device_array(r.counts(), *ctx_);
    plan(r);
  }

  Operands operands(const HistogramRequest& r) const {
    return {device_array(r.samples(), *ctx_).data(), device_array(r.counts(), *ctx_).data()};
  }

  // `calls` back-to-back histograms in one interval behind the gate (timing.hpp).
  Timing run(const HistogramRequest& request, int calls) override {
    const auto t0 = HostClock::now();
    const Operands o = operands(request);
    Histogram& histogram = plan(request);
    const cudaStream_t s = ctx_->stream();
    const std::uint32_t* count = count_word(request);
    timer_.record(s, launches_ > 0 && ctx_->knobs().gate, calls, [&] {
      enqueue(histogram, s, o, count);
      ++launches_;
    });
    const float device_ms = timer_.finish(s, ctx_->knobs().timeout) / static_cast<float>(calls);
    return Timing{device_ms, ms_since(t0) / calls, true};
  }

  // As the sorter's: the plan a timed call ran, captured without running; with nothing timed
  // yet (`xreduce inspect`), the call itself, run and captured.
  std::vector<CompiledPass> compiled(const HistogramRequest& request) override {
    const Operands o = operands(request);
    Histogram& histogram = plan(request);
    const std::uint32_t* count = count_word(request);
    const auto call = [&](cudaStream_t s) { enqueue(histogram, s, o, count); };
    return (launches_ > 0 ? captured_call(*ctx_, call) : compiled_call(*ctx_, call)).passes;
  }

  void enqueue(Histogram& histogram, cudaStream_t s, const Operands& o,
               const std::uint32_t* count) {
    if (count)
      histogram.enqueue_indirect(s, count, o.samples, o.counts, temp_.get());
    else
      histogram.enqueue(s, o.samples, o.counts, temp_.get());
  }

  // The device word holding the request's count where it is on the device (written on the
  // first such call of the plan); null otherwise.
  const std::uint32_t* count_word(const HistogramRequest& request) {
    if (!request.count_on_device()) return nullptr;
    if (!count_.get()) {
      count_ = ctx_->zeroed(sizeof(std::uint32_t));
      const auto n = static_cast<std::uint32_t>(request.count());
      XR_CUDA_CHECK(cudaMemcpy(count_.get(), &n, sizeof n, cudaMemcpyHostToDevice));
    }
    return static_cast<const std::uint32_t*>(count_.get());
  }

  std::string tuning(const HistogramRequest& request) override { return plan(request).tuning(); }

  // The library's Histogram of the request's description and its temporary storage: made
  // again only where the description changes.
  Histogram& plan(const HistogramRequest& request) {
    ctx_->activate();
    if (!ctx_->knobs().histogram_error.empty())
      throw Error(ErrorCategory::usage, ctx_->knobs().histogram_error);
    if (histogram_ && desc_ == request.desc()) return *histogram_;
    histogram_.reset();
    temp_ = DeviceBuffer();
    count_ = DeviceBuffer();
    Histogram histogram(request.desc(), ctx_->limits(),
                        histogram::Tuning{.lane_banked = ctx_->knobs().histogram_lane_banked});
    temp_ = ctx_->zeroed(histogram.temp_storage_bytes());
    histogram_.emplace(std::move(histogram));
    desc_ = request.desc();
    launches_ = 0;
    return *histogram_;
  }

  std::shared_ptr<Context> ctx_;
  std::optional<Histogram> histogram_;
  HistogramDesc desc_{};
  DeviceBuffer temp_;
  DeviceBuffer count_;          // the plan's count in a device word, for the indirect calls
  std::uint64_t launches_ = 0;  // on this plan; its first loads the modules and is not gated
  CallTimer timer_;
};

const histogram::Spec& entry_of(std::string_view id) {
  const histogram::Spec* e = find_histogram(id);
  if (!e)
    throw Error(ErrorCategory::usage, "unknown cuda histogram variant '" + std::string(id) + "'");
  return *e;
}

}  // namespace

std::vector<VariantInfo> cuda_histogram_variants() {
  std::vector<VariantInfo> out;
  for (const histogram::Spec& e : histogram_table()) out.push_back(histogram_info_of(e));
  return out;
}

bool has_histogram_variant(std::string_view id) {
  return find_histogram(id) != nullptr;
}

std::string histogram_unsupported_reason(std::string_view id, const DeviceLimits& limits) {
  return histogram_unsupported_reason(entry_of(id), limits);
}

std::unique_ptr<Histogrammer> make_cuda_histogrammer(std::string_view id,
                                                     std::shared_ptr<Context> ctx) {
  return std::make_unique<CudaHistogrammer>(entry_of(id), std::move(ctx));
}

}  // namespace xr::cuda
