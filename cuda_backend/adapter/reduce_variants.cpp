// The tool's CUDA reducer: any id of the library's reduce table (library/reduce_table.cpp),
// planned once per size through the library's Reduce, every launch of a reduce() timed
// between two CUDA events.
#include "variants.hpp"

#include "xreduce/cuda/reduce.hpp"

#include <cstring>
#include <optional>
#include <span>
#include <string>

#include "array.hpp"
#include "compiled_call.hpp"
#include "planned_scratch.hpp"
#include "reduce_table.hpp"
#include "timing.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/device_variant.hpp"
#include "xreduce/error.hpp"
#include "xreduce/units.hpp"

namespace xr::cuda {
namespace {

// What `xreduce list` shows for the in-place kernels' type limit (dispatch_global.cu says why).
constexpr std::string_view kInPlaceTypes = "a 32-bit dtype (i32, u32, f32; partials in place)";

const std::vector<Op> kOps{Op::sum, Op::min, Op::max};

VariantInfo info_of(const ReduceEntry& e) {
  const std::span<const DType> types =
      e.in_place ? std::span<const DType>(k32BitDTypes) : std::span<const DType>(kElementDTypes);
  VariantInfo info = catalog_variant(Primitive::reduce, e.id, {types.begin(), types.end()}, kOps);
  info.writes_input = e.in_place;
  if (!e.requirement.empty()) info.requirements.emplace_back(e.requirement);
  if (e.in_place) info.requirements.emplace_back(kInPlaceTypes);
  return info;
}

class CudaReducer final : public DeviceReducer {
 public:
  CudaReducer(const ReduceEntry& entry, std::shared_ptr<Context> ctx)
      : DeviceReducer(info_of(entry), "n = 0: nothing is launched"),
        ctx_((ctx->activate(), std::move(ctx))),
        result_(16),
        host_result_(16) {}

 private:
  void prepare(DeviceArray& input) override { device_array(input, *ctx_); }

  // `calls` back-to-back calls in one interval behind the gate (timing.hpp); the value is read
  // back after the stop event, outside the interval.
  Reduction run(DeviceArray& input, Op op, int calls) override {
    const auto t0 = HostClock::now();
    CudaArray* array = &device_array(input, *ctx_);
    const DType t = input.dtype();
    const Reduce& reduce = plan(t, op, array->size());
    const cudaStream_t s = ctx_->stream();
    timer_.record(s, planned_.launches() > 0 && ctx_->knobs().gate, calls, [&] {
      reduce.enqueue(s, array->data(), result_.get(), planned_.scratch());
      planned_.launched();
    });
    XR_CUDA_CHECK(
        cudaMemcpyAsync(host_result_.get(), result_.get(), size_of(t), cudaMemcpyDeviceToHost, s));
    const float device_ms = timer_.finish(s, ctx_->knobs().timeout) / static_cast<float>(calls);
    const Value v = visit_element_dtype(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      T x;
      std::memcpy(&x, host_result_.get(), sizeof(T));
      return Value::of(x);
    });
    return {v, Timing{device_ms, ms_since(t0) / calls, true}};
  }

  // The plan a timed call just ran: a copy of it captured, which runs nothing; with nothing timed
  // yet (`xreduce inspect`), the call itself, run and captured.
  std::vector<CompiledPass> compiled(DeviceArray& input, Op op) override {
    CudaArray* array = &device_array(input, *ctx_);
    const Reduce& reduce = plan(input.dtype(), op, array->size());
    const Reduce* enqueued = &reduce;
    std::optional<Reduce> copy;
    if (planned_.launches() > 0)
      enqueued = &copy.emplace(make_plan(input.dtype(), op, array->size()));
    const auto enqueue = [&](cudaStream_t s) {
      enqueued->enqueue(s, array->data(), result_.get(), planned_.scratch());
    };
    return (copy ? captured_call(*ctx_, enqueue) : compiled_call(*ctx_, enqueue)).passes;
  }

  Reduce make_plan(DType t, Op op, std::size_t n) const {
    return Reduce({.dtype = t,
                   .op = op,
                   .count = n,
                   .variant = info().id,
                   .overwrite_input = info().writes_input},
                  ctx_->limits());
  }

  const Reduce& plan(DType t, Op op, std::size_t n) {
    ctx_->activate();
    planned_.ensure(*ctx_, t, op, n, [&] { return make_plan(t, op, n); });
    return planned_.call();
  }

  std::shared_ptr<Context> ctx_;
  PlannedScratch<Reduce> planned_;  // scratch starts zeroed: the single-pass ticket needs it
  DeviceBuffer result_;
  PinnedBuffer host_result_;
  CallTimer timer_;
};

}  // namespace

std::vector<VariantInfo> cuda_variants() {
  std::vector<VariantInfo> out;
  for (const ReduceEntry& e : reduce_table()) out.push_back(info_of(e));
  for (auto& v : cuda_scan_variants()) out.push_back(std::move(v));
  for (auto& v : cuda_sort_variants()) out.push_back(std::move(v));
  for (auto& v : cuda_histogram_variants()) out.push_back(std::move(v));
  return out;
}

bool has_variant(Primitive primitive, std::string_view id) {
  switch (primitive) {
    case Primitive::reduce:
      return find_reduce(id) != nullptr;
    case Primitive::scan:
      return has_scan_variant(id);
    case Primitive::sort:
      return has_sort_variant(id);
    case Primitive::histogram:
      break;
  }
  return has_histogram_variant(id);
}

std::string variant_unsupported_reason(Primitive primitive, std::string_view id,
                                       const DeviceLimits& limits) {
  if (primitive == Primitive::scan) return scan_unsupported_reason(id, limits);
  if (primitive == Primitive::sort) return sort_unsupported_reason(id, limits);
  if (primitive == Primitive::histogram) return histogram_unsupported_reason(id, limits);
  const ReduceEntry* e = find_reduce(id);
  if (!e) throw Error(ErrorCategory::usage, "unknown cuda variant '" + std::string(id) + "'");
  return reduce_unsupported_reason(*e, limits);
}

std::unique_ptr<Reducer> make_cuda_reducer(std::string_view id, std::shared_ptr<Context> ctx) {
  const ReduceEntry* e = find_reduce(id);
  if (!e) throw Error(ErrorCategory::usage, "unknown cuda variant '" + std::string(id) + "'");
  return std::make_unique<CudaReducer>(*e, std::move(ctx));
}

}  // namespace xr::cuda
