// The CUDA reduce table and the one Reducer that runs any of them: plan once per size, then
// time every launch of a reduce() between two CUDA events.
#include "variants.hpp"

#include <cstring>
#include <span>
#include <string>

#include "array.hpp"
#include "dispatch.hpp"
#include "timing.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/error.hpp"
#include "xreduce/units.hpp"

namespace xr::cuda {
namespace {

struct Entry {
  std::string_view id;
  Kernel kernel;
  // Seed 000's in-place kernels: they write into the input, and keep to the 32-bit types.
  bool in_place = false;
  int min_cc = 0;  // compute capability x 10
  std::string_view requirement = {};
};

// What `xreduce list` shows for the in-place kernels' type limit (dispatch_global.cu says why).
constexpr std::string_view kInPlaceTypes = "a 32-bit dtype (i32, u32, f32; partials in place)";

// Ladder order, as in core/src/catalog.cpp.
constexpr Entry kTable[] = {
    {"global/neighbored", Kernel::global_neighbored, true},
    {"global/neighbored-less", Kernel::global_neighbored_less, true},
    {"global/interleaved", Kernel::global_interleaved, true},
    {"global/unroll2", Kernel::global_unroll2, true},
    {"global/unroll4", Kernel::global_unroll4, true},
    {"global/unroll8", Kernel::global_unroll8, true},
    {"global/unroll-warps8", Kernel::global_unroll_warps8, true},
    {"global/complete-unroll-warps8", Kernel::global_complete_unroll_warps8, true},
    {"global/complete-unroll-template", Kernel::global_complete_unroll_template, true},
    {"smem/interleaved-divergent", Kernel::smem_interleaved_divergent},
    {"smem/interleaved-strided", Kernel::smem_interleaved_strided},
    {"smem/sequential", Kernel::smem_sequential},
    {"smem/first-add", Kernel::smem_first_add},
    {"smem/unroll-last-warp", Kernel::smem_unroll_last_warp},
    {"smem/complete-unroll", Kernel::smem_complete_unroll},
    {"smem/multi-element", Kernel::smem_multi_element},
    {"warp/shuffle-down", Kernel::warp_shuffle_down},
    {"warp/shuffle-xor", Kernel::warp_shuffle_xor},
    {"warp/redux", Kernel::warp_redux, false, 80, "sm_80 (__reduce_*_sync)"},
    {"fast/vectorized", Kernel::fast_vectorized},
    {"fast/single-pass", Kernel::fast_single_pass},
    {"lib/cub", Kernel::lib_cub},
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
    if (calls < 1) throw Error(ErrorCategory::usage, "a batch needs at least one call");
    const auto t0 = HostClock::now();
    const DType t = input.dtype();
    if (!info_.claims(t) || !info_.claims(op))
      throw Error(ErrorCategory::unsupported, info_.id + " does not implement " +
                                                  std::string(to_string(op)) + " on " +
                                                  std::string(to_string(t)));
    auto* array = dynamic_cast<CudaArray*>(&input);
    if (!array) throw Error(ErrorCategory::usage, "cuda reducer given an array of another backend");
    if (array->context().device() != ctx_->device())
      throw Error(ErrorCategory::usage,
                  "cuda: the array lives on device " + std::to_string(array->context().device()) +
                      ", the reducer on device " + std::to_string(ctx_->device()));
    const std::size_t n = array->size();
    if (n == 0) return {Value::identity_of(t, op), Timing{0, ms_since(t0), true}};

    ctx_->activate();
    const cudaStream_t s = ctx_->stream();
    prepare(t, op, n);
    const Buffers bufs{array->data(), scratch_.get(), result_.get()};
    timer_.start(s, runs_since_plan_++ > 0);
    for (int i = 0; i < calls; ++i) {
      enqueue(plan_, bufs, s);
      timer_.enqueued();
    }
    timer_.stop(s);
    XR_CUDA_CHECK(
        cudaMemcpyAsync(host_result_.get(), result_.get(), size_of(t), cudaMemcpyDeviceToHost, s));
    const float device_ms = timer_.finish(s) / static_cast<float>(calls);
    const Value v = visit_dtype(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      T x;
      std::memcpy(&x, host_result_.get(), sizeof(T));
      return Value::of(x);
    });
    return {v, Timing{device_ms, ms_since(t0) / calls, true}};
  }

  // Plans and allocates scratch once per (n, dtype, op): grid choice, occupancy and CUB's
  // temp-storage query stay out of the timed region. Scratch starts zeroed (the single-pass
  // ticket relies on it).
  void prepare(DType t, Op op, std::size_t n) {
    if (planned_ && plan_.n == n && plan_.dtype == t && plan_.op == op) return;
    planned_ = false;
    scratch_ = DeviceBuffer();
    plan_ = make_plan(kernel_, t, op, n, ctx_->limits());
    scratch_ = ctx_->zeroed(plan_.scratch_bytes);
    runs_since_plan_ = 0;
    planned_ = true;
  }

  VariantInfo info_;
  Kernel kernel_;
  std::shared_ptr<Context> ctx_;
  Plan plan_;
  bool planned_ = false;
  DeviceBuffer scratch_;
  DeviceBuffer result_;
  PinnedBuffer host_result_;
  CallTimer timer_;
  int runs_since_plan_ = 0;  // the first run of a plan is not gated (lazy module loading)
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
