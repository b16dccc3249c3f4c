// The tool's CUDA sorter: any id of the library's sort table (library/sort_table.cpp), planned with
// its temporary storage once per (dtype, n, order, bits, values) through the library's Sort, every
// launch of a sort() timed between two CUDA events.
#include <iterator>
#include <optional>
#include <string>

#include "array.hpp"
#include "compiled_call.hpp"
#include "sort_dispatch.hpp"
#include "sort_table.hpp"
#include "timing.hpp"
#include "variants.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/cuda/sort.hpp"
#include "xreduce/device_variant.hpp"
#include "xreduce/error.hpp"
#include "xreduce/units.hpp"

namespace xr::cuda {
namespace {

VariantInfo sort_info_of(const sort::Spec& e) {
  VariantInfo info = catalog_variant(Primitive::sort, e.id,
                                     {std::begin(kElementDTypes), std::end(kElementDTypes)}, {});
  info.max_elements = e.max_count;
  info.count_on_device = e.kernel != sort::Kernel::lib_cub;  // CUB takes its count from the host
  if (!e.requirement.empty()) info.requirements.emplace_back(e.requirement);
  return info;
}

class CudaSorter final : public DeviceSorter {
 public:
  CudaSorter(const sort::Spec& entry, std::shared_ptr<Context> ctx)
      : DeviceSorter(sort_info_of(entry), "n = 0: nothing is launched"),
        ctx_((ctx->activate(), std::move(ctx))) {}

  // lib/cub's plan, which says its num_items width and why (the tuning table's entry or the
  // knob): the report keeps which CUB it measured.
  std::string diagnostics() const override {
    return sort_ && info().id == "lib/cub" ? sort_->describe() : std::string();
  }

 private:
  struct Operands {
    const void* keys;
    void* sorted;
    const void* values = nullptr;  // u32 or u64, as the request's desc().values says
    void* sorted_values = nullptr;
  };

  // Every array is this device's, and the plan is made, n = 0 included: the library refuses
  // what the device cannot run.
  void prepare(const SortRequest& r) override {
    r.for_each_array([&](DeviceArray& a) { device_array(a, *ctx_); });
    plan(r);
  }

  Operands operands(const SortRequest& r) const {
    Operands o{device_array(r.keys(), *ctx_).data(), device_array(r.sorted_keys(), *ctx_).data()};
    if (r.values()) {
      o.values = device_array(*r.values(), *ctx_).data();
      o.sorted_values = device_array(*r.sorted_values(), *ctx_).data();
    }
    return o;
  }

  // `calls` back-to-back sorts in one interval behind the gate (timing.hpp).
  Timing run(const SortRequest& request, int calls) override {
    const auto t0 = HostClock::now();
    const Operands o = operands(request);
    Sort& sort = plan(request);
    const cudaStream_t s = ctx_->stream();
    const std::uint32_t* count = count_word(request);
    timer_.record(s, launches_ > 0 && ctx_->knobs().gate, calls, [&] {
      enqueue(sort, s, o, count);
      ++launches_;
    });
    const float device_ms = timer_.finish(s, ctx_->knobs().timeout) / static_cast<float>(calls);
    return Timing{device_ms, ms_since(t0) / calls, true};
  }

  // The plan a timed call just ran, captured without running; with nothing timed yet (`xreduce
  // inspect`), the call itself, run and captured. A sort's plan counts nothing between calls, so
  // the plan itself is captured.
  std::vector<CompiledPass> compiled(const SortRequest& request) override {
    const Operands o = operands(request);
    Sort& sort = plan(request);
    const std::uint32_t* count = count_word(request);
    const auto call = [&](cudaStream_t s) { enqueue(sort, s, o, count); };
    return (launches_ > 0 ? captured_call(*ctx_, call) : compiled_call(*ctx_, call)).passes;
  }

  // The request's call: its count on the host, or in the device word at `count`.
  void enqueue(Sort& sort, cudaStream_t s, const Operands& o, const std::uint32_t* count) {
    if (count)
      sort.enqueue_indirect(s, count, o.keys, o.sorted, o.values, o.sorted_values, temp_.get());
    else
      sort.enqueue(s, o.keys, o.sorted, o.values, o.sorted_values, temp_.get());
  }

  // The device word holding the request's count, for a request whose count is on the device
  // (written on the first such call of the plan); null otherwise.
  const std::uint32_t* count_word(const SortRequest& request) {
    if (!request.count_on_device()) return nullptr;
    if (!count_.get()) {
      count_ = ctx_->zeroed(sizeof(std::uint32_t));
      const auto n = static_cast<std::uint32_t>(request.count());
      XR_CUDA_CHECK(cudaMemcpy(count_.get(), &n, sizeof n, cudaMemcpyHostToDevice));
    }
    return static_cast<const std::uint32_t*>(count_.get());
  }

  // The library's Sort of the request's description, and its temporary storage: made again
  // only where the description changes.
  std::string tuning(const SortRequest& request) override { return plan(request).tuning(); }

  Sort& plan(const SortRequest& request) {
    ctx_->activate();
    if (!ctx_->knobs().cub_count_error.empty())
      throw Error(ErrorCategory::usage, ctx_->knobs().cub_count_error);
    if (sort_ && desc_ == request.desc()) return *sort_;
    sort_.reset();
    temp_ = DeviceBuffer();
    count_ = DeviceBuffer();
    Sort sort(request.desc(), ctx_->limits(), sort::Tuning{.cub_count = ctx_->knobs().cub_count});
    temp_ = ctx_->zeroed(sort.temp_storage_bytes());
    sort_.emplace(std::move(sort));
    desc_ = request.desc();
    launches_ = 0;
    return *sort_;
  }

  std::shared_ptr<Context> ctx_;
  std::optional<Sort> sort_;
  SortDesc desc_{};
  DeviceBuffer temp_;
  DeviceBuffer count_;          // the plan's count in a device word, for the indirect calls
  std::uint64_t launches_ = 0;  // on this plan; its first loads the modules and is not gated
  CallTimer timer_;
};

const sort::Spec& entry_of(std::string_view id) {
  const sort::Spec* e = find_sort(id);
  if (!e) throw Error(ErrorCategory::usage, "unknown cuda sort variant '" + std::string(id) + "'");
  return *e;
}

}  // namespace

std::vector<VariantInfo> cuda_sort_variants() {
  std::vector<VariantInfo> out;
  for (const sort::Spec& e : sort_table()) out.push_back(sort_info_of(e));
  return out;
}

bool has_sort_variant(std::string_view id) {
  return find_sort(id) != nullptr;
}

std::string sort_unsupported_reason(std::string_view id, const DeviceLimits& limits) {
  return sort_unsupported_reason(entry_of(id), limits);
}

std::unique_ptr<Sorter> make_cuda_sorter(std::string_view id, std::shared_ptr<Context> ctx) {
  return std::make_unique<CudaSorter>(entry_of(id), std::move(ctx));
}

}  // namespace xr::cuda
