// The CUDA scan table and the one Scanner that runs any of its variants: plan and scratch once
// per (n, dtype, op), then every launch of a scan() between two CUDA events.
#include <iterator>
#include <string>

#include "array.hpp"
#include "scan_dispatch.hpp"
#include "timing.hpp"
#include "variants.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/error.hpp"
#include "xreduce/units.hpp"

namespace xr::cuda {
namespace {

struct ScanEntry {
  std::string_view id;
  ScanKernel kernel;
  // Float results bitwise the same run to run. The look-back sums a tile's predecessors in an
  // order that depends on which of them have published their inclusive prefix yet.
  bool deterministic = true;
  bool needs_cooperative_launch = false;
};

// Ladder order, as in core/src/catalog.cpp.
constexpr ScanEntry kScanTable[] = {
    {"smem/hillis-steele", ScanKernel::smem_hillis_steele},
    {"bit/one-layer", ScanKernel::bit_one_layer},
    {"bit/between-blocks", ScanKernel::bit_between_blocks},
    {"bit/smem", ScanKernel::bit_smem},
    {"bit/unrolled", ScanKernel::bit_unrolled},
    {"bit/cooperative", ScanKernel::bit_cooperative, true, true},
    {"blelloch/bcao", ScanKernel::blelloch_bcao},
    {"warp/shuffle-up", ScanKernel::warp_shuffle_up},
    {"fast/reduce-then-scan", ScanKernel::fast_reduce_then_scan},
    {"fast/decoupled-lookback", ScanKernel::fast_decoupled_lookback, false},
    {"lib/cub", ScanKernel::lib_cub, false},
};

const ScanEntry* find_scan_entry(std::string_view id) {
  for (const ScanEntry& e : kScanTable)
    if (e.id == id) return &e;
  return nullptr;
}

VariantInfo scan_info_of(const ScanEntry& e) {
  VariantInfo info =
      catalog_variant(Primitive::scan, e.id, {std::begin(kAllDTypes), std::end(kAllDTypes)},
                      {Op::sum, Op::min, Op::max});
  info.deterministic = e.deterministic;
  if (e.needs_cooperative_launch) info.requirements.emplace_back("cooperative launch");
  return info;
}

class CudaScanner final : public Scanner {
 public:
  CudaScanner(const ScanEntry& entry, std::shared_ptr<Context> ctx)
      : info_(scan_info_of(entry)),
        kernel_(entry.kernel),
        ctx_((ctx->activate(), std::move(ctx))) {}

  const VariantInfo& info() const override { return info_; }

  Timing scan(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind) override {
    return run(input, output, op, kind, 1);
  }
  Timing scan_batch(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind,
                    int calls) override {
    return run(input, output, op, kind, calls);
  }

 private:
  // `calls` back-to-back scans in one interval behind the gate (timing.hpp).
  Timing run(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind, int calls) {
    if (calls < 1) throw Error(ErrorCategory::usage, "a batch needs at least one call");
    const auto t0 = HostClock::now();
    const DType t = input.dtype();
    if (!info_.claims(t) || !info_.claims(op) || !info_.claims(kind))
      throw Error(ErrorCategory::unsupported,
                  info_.id + " does not implement the " + std::string(to_string(kind)) + " " +
                      std::string(to_string(op)) + " scan of " + std::string(to_string(t)));
    auto* in = dynamic_cast<CudaArray*>(&input);
    auto* out = dynamic_cast<CudaArray*>(&output);
    if (!in || !out)
      throw Error(ErrorCategory::usage, "cuda scanner given an array of another backend");
    if (in == out || out->dtype() != t || out->size() != in->size())
      throw Error(ErrorCategory::usage,
                  "scan output must be a distinct array of the input's dtype and size");
    for (const CudaArray* a : {in, out})
      if (a->context().device() != ctx_->device())
        throw Error(ErrorCategory::usage,
                    "cuda: an array lives on device " + std::to_string(a->context().device()) +
                        ", the scanner on device " + std::to_string(ctx_->device()));
    const std::size_t n = in->size();
    if (n == 0) return Timing{0, ms_since(t0), true};

    ctx_->activate();
    const cudaStream_t s = ctx_->stream();
    prepare(t, op, n);
    timer_.start(s, launches_ > 0);  // a plan's first call loads modules: not gated
    for (int i = 0; i < calls; ++i) {
      enqueue_scan(plan_, ScanBuffers{in->data(), out->data(), scratch_.get(), launches_}, kind, s);
      ++launches_;
      timer_.enqueued();
    }
    timer_.stop(s);
    const float device_ms = timer_.finish(s) / static_cast<float>(calls);
    return Timing{device_ms, ms_since(t0) / calls, true};
  }

  // Plans and allocates zeroed scratch once per (n, dtype, op): grid choice, occupancy and CUB's
  // temp-storage query stay out of the timed region.
  void prepare(DType t, Op op, std::size_t n) {
    if (planned_ && plan_.n == n && plan_.dtype == t && plan_.op == op) return;
    planned_ = false;
    scratch_ = DeviceBuffer();
    plan_ = make_scan_plan(kernel_, t, op, n, ctx_->limits());
    scratch_ = ctx_->zeroed(plan_.scratch_bytes);
    launches_ = 0;
    planned_ = true;
  }

  VariantInfo info_;
  ScanKernel kernel_;
  std::shared_ptr<Context> ctx_;
  ScanPlan plan_;
  bool planned_ = false;
  DeviceBuffer scratch_;
  std::uint64_t launches_ = 0;  // enqueue_scan calls on this scratch (ScanBuffers::launch)
  CallTimer timer_;
};

}  // namespace

std::vector<VariantInfo> cuda_scan_variants() {
  std::vector<VariantInfo> out;
  for (const ScanEntry& e : kScanTable) out.push_back(scan_info_of(e));
  return out;
}

bool has_scan_variant(std::string_view id) {
  return find_scan_entry(id) != nullptr;
}

std::string scan_unsupported_reason(std::string_view id, const DeviceLimits& limits) {
  const ScanEntry* e = find_scan_entry(id);
  if (!e) throw Error(ErrorCategory::usage, "unknown cuda scan variant '" + std::string(id) + "'");
  if (e->needs_cooperative_launch && !limits.cooperative_launch)
    return "needs cooperative launch, which this device does not support";
  return {};
}

std::unique_ptr<Scanner> make_cuda_scanner(std::string_view id, std::shared_ptr<Context> ctx) {
  const ScanEntry* e = find_scan_entry(id);
  if (!e) throw Error(ErrorCategory::usage, "unknown cuda scan variant '" + std::string(id) + "'");
  return std::make_unique<CudaScanner>(*e, std::move(ctx));
}

}  // namespace xr::cuda
