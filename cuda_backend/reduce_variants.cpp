// The CUDA reduce table and the one Reducer that runs any of them: plan once per size, then
// time every launch of a reduce() between two CUDA events.
#include "variants.hpp"

#include <cstring>
#include <span>
#include <string>

#include "array.hpp"
#include "planned_scratch.hpp"
#include "reduce_dispatch.hpp"
#include "timing.hpp"
#include "xreduce/call_check.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/error.hpp"
#include "xreduce/units.hpp"

namespace xr::cuda {
namespace {

struct Entry {
  std::string_view id;
  ReduceKernel kernel{};
  // Seed 000's in-place kernels: they write into the input, and keep to the 32-bit types.
  bool in_place = false;
  int min_cc = 0;  // compute capability x 10
  std::string_view requirement = {};
};

// What `xreduce list` shows for the in-place kernels' type limit (dispatch_global.cu says why).
constexpr std::string_view kInPlaceTypes = "a 32-bit dtype (i32, u32, f32; partials in place)";

// Ladder order, as in core/src/catalog.cpp.
constexpr Entry kTable[] = {
    {.id = "global/neighbored", .kernel = ReduceKernel::global_neighbored, .in_place = true},
    {.id = "global/neighbored-less",
     .kernel = ReduceKernel::global_neighbored_less,
     .in_place = true},
    {.id = "global/interleaved", .kernel = ReduceKernel::global_interleaved, .in_place = true},
    {.id = "global/unroll2", .kernel = ReduceKernel::global_unroll2, .in_place = true},
    {.id = "global/unroll4", .kernel = ReduceKernel::global_unroll4, .in_place = true},
    {.id = "global/unroll8", .kernel = ReduceKernel::global_unroll8, .in_place = true},
    {.id = "global/unroll-warps8", .kernel = ReduceKernel::global_unroll_warps8, .in_place = true},
    {.id = "global/complete-unroll-warps8",
     .kernel = ReduceKernel::global_complete_unroll_warps8,
     .in_place = true},
    {.id = "global/complete-unroll-template",
     .kernel = ReduceKernel::global_complete_unroll_template,
     .in_place = true},
    {.id = "smem/interleaved-divergent", .kernel = ReduceKernel::smem_interleaved_divergent},
    {.id = "smem/interleaved-strided", .kernel = ReduceKernel::smem_interleaved_strided},
    {.id = "smem/sequential", .kernel = ReduceKernel::smem_sequential},
    {.id = "smem/first-add", .kernel = ReduceKernel::smem_first_add},
    {.id = "smem/unroll-last-warp", .kernel = ReduceKernel::smem_unroll_last_warp},
    {.id = "smem/complete-unroll", .kernel = ReduceKernel::smem_complete_unroll},
    {.id = "smem/multi-element", .kernel = ReduceKernel::smem_multi_element},
    {.id = "warp/shuffle-down", .kernel = ReduceKernel::warp_shuffle_down},
    {.id = "warp/shuffle-xor", .kernel = ReduceKernel::warp_shuffle_xor},
    {.id = "warp/redux",
     .kernel = ReduceKernel::warp_redux,
     .min_cc = 80,
     .requirement = "sm_80 (__reduce_*_sync)"},
    {.id = "fast/vectorized", .kernel = ReduceKernel::fast_vectorized},
    {.id = "fast/single-pass", .kernel = ReduceKernel::fast_single_pass},
    {.id = "lib/cub", .kernel = ReduceKernel::lib_cub},
};

const std::vector<Op> kOps{Op::sum, Op::min, Op::max};

const Entry* find_entry(std::string_view id) {
  for (const Entry& e : kTable)
    if (e.id == id) return &e;
  return nullptr;
}

VariantInfo info_of(const Entry& e) {
  const std::span<const DType> types =
      e.in_place ? std::span<const DType>(k32BitDTypes) : std::span<const DType>(kAllDTypes);
  VariantInfo info = catalog_variant(Primitive::reduce, e.id, {types.begin(), types.end()}, kOps);
  info.writes_input = e.in_place;
  if (!e.requirement.empty()) info.requirements.emplace_back(e.requirement);
  if (e.in_place) info.requirements.emplace_back(kInPlaceTypes);
  return info;
}

class CudaReducer final : public Reducer {
 public:
  CudaReducer(const Entry& entry, std::shared_ptr<Context> ctx)
      : info_(info_of(entry)),
        kernel_(entry.kernel),
        ctx_((ctx->activate(), std::move(ctx))),
        result_(16),
        host_result_(16) {}

  const VariantInfo& info() const override { return info_; }

  Reduction reduce(DeviceArray& input, Op op) override { return run(input, op, 1); }
  Reduction reduce_batch(DeviceArray& input, Op op, int calls) override {
    return run(input, op, calls);
  }

 private:
  // `calls` back-to-back calls in one interval behind the gate (timing.hpp); the value is read
  // back after the stop event, outside the interval.
  Reduction run(DeviceArray& input, Op op, int calls) {
    const auto t0 = HostClock::now();
    check_reduce_call(info_, input, op, calls);
    CudaArray* array = &device_array(input, *ctx_);
    const DType t = input.dtype();
    const std::size_t n = array->size();
    if (n == 0) return {Value::identity_of(t, op), Timing{0, ms_since(t0), true}};

    ctx_->activate();
    const cudaStream_t s = ctx_->stream();
    planned_.ensure(*ctx_, t, op, n,
                    [&] { return make_reduce_plan(kernel_, t, op, n, ctx_->limits()); });
    const ReduceBuffers bufs{array->data(), planned_.scratch(), result_.get()};
    timer_.record(s, planned_.launches() > 0 && ctx_->knobs().gate, calls, [&] {
      enqueue_reduce(planned_.plan(), bufs, s);
      planned_.launched();
    });
    XR_CUDA_CHECK(
        cudaMemcpyAsync(host_result_.get(), result_.get(), size_of(t), cudaMemcpyDeviceToHost, s));
    const float device_ms = timer_.finish(s, ctx_->knobs().timeout) / static_cast<float>(calls);
    const Value v = visit_dtype(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      T x;
      std::memcpy(&x, host_result_.get(), sizeof(T));
      return Value::of(x);
    });
    return {v, Timing{device_ms, ms_since(t0) / calls, true}};
  }

  VariantInfo info_;
  ReduceKernel kernel_;
  std::shared_ptr<Context> ctx_;
  PlannedScratch<ReducePlan> planned_;  // scratch starts zeroed: the single-pass ticket needs it
  DeviceBuffer result_;
  PinnedBuffer host_result_;
  CallTimer timer_;
};

}  // namespace

std::vector<VariantInfo> cuda_variants() {
  std::vector<VariantInfo> out;
  for (const Entry& e : kTable) out.push_back(info_of(e));
  for (auto& v : cuda_scan_variants()) out.push_back(std::move(v));
  return out;
}

bool has_variant(Primitive primitive, std::string_view id) {
  return primitive == Primitive::reduce ? find_entry(id) != nullptr : has_scan_variant(id);
}

std::string variant_unsupported_reason(Primitive primitive, std::string_view id,
                                       const DeviceLimits& limits) {
  if (primitive == Primitive::scan) return scan_unsupported_reason(id, limits);
  const Entry* e = find_entry(id);
  if (!e) throw Error(ErrorCategory::usage, "unknown cuda variant '" + std::string(id) + "'");
  const int cc = limits.cc_major * 10 + limits.cc_minor;
  if (cc < e->min_cc)
    return "needs " + std::string(e->requirement) + "; this device is sm_" + std::to_string(cc);
  return {};
}

std::unique_ptr<Reducer> make_cuda_reducer(std::string_view id, std::shared_ptr<Context> ctx) {
  const Entry* e = find_entry(id);
  if (!e) throw Error(ErrorCategory::usage, "unknown cuda variant '" + std::string(id) + "'");
  return std::make_unique<CudaReducer>(*e, std::move(ctx));
}

}  // namespace xr::cuda
