// The CUDA scan table and the one Scanner that runs any of its variants: plan and scratch once
// per (n, dtype, op), then every launch of a scan() between two CUDA events.
#include <iterator>
#include <string>

#include "array.hpp"
#include "planned_scratch.hpp"
#include "scan_dispatch.hpp"
#include "timing.hpp"
#include "variants.hpp"
#include "xreduce/call_check.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/error.hpp"
#include "xreduce/units.hpp"

namespace xr::cuda {
namespace {

struct ScanEntry {
  std::string_view id;
  ScanKernel kernel{};
  // Float results bitwise the same run to run. The look-back sums a tile's predecessors in an
  // order that depends on which of them have published their inclusive prefix yet.
  bool deterministic = true;
  bool needs_cooperative_launch = false;
};

// Ladder order, as in core/src/catalog.cpp.
constexpr ScanEntry kScanTable[] = {
    {.id = "smem/hillis-steele", .kernel = ScanKernel::smem_hillis_steele},
    {.id = "bit/one-layer", .kernel = ScanKernel::bit_one_layer},
    {.id = "bit/between-blocks", .kernel = ScanKernel::bit_between_blocks},
    {.id = "bit/smem", .kernel = ScanKernel::bit_smem},
    {.id = "bit/unrolled", .kernel = ScanKernel::bit_unrolled},
    {.id = "bit/cooperative",
     .kernel = ScanKernel::bit_cooperative,
     .needs_cooperative_launch = true},
    {.id = "blelloch/bcao", .kernel = ScanKernel::blelloch_bcao},
    {.id = "warp/shuffle-up", .kernel = ScanKernel::warp_shuffle_up},
    {.id = "fast/reduce-then-scan", .kernel = ScanKernel::fast_reduce_then_scan},
    {.id = "fast/decoupled-lookback",
     .kernel = ScanKernel::fast_decoupled_lookback,
     .deterministic = false},
    {.id = "lib/cub", .kernel = ScanKernel::lib_cub, .deterministic = false},
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
    const auto t0 = HostClock::now();
    check_scan_call(info_, input, output, op, kind, calls);
    CudaArray* in = &device_array(input, *ctx_);
    CudaArray* out = &device_array(output, *ctx_);
    const DType t = input.dtype();
    const std::size_t n = in->size();
    if (n == 0) return Timing{0, ms_since(t0), true};

    ctx_->activate();
    const cudaStream_t s = ctx_->stream();
    const ScanOneGroupKnob& one_group = ctx_->knobs().one_group;
    if (!one_group.error.empty()) throw Error(ErrorCategory::usage, one_group.error);
    planned_.ensure(*ctx_, t, op, n, [&] {
      return make_scan_plan(kernel_, t, op, n, ctx_->limits(), one_group.max);
    });
    timer_.record(s, planned_.launches() > 0 && ctx_->knobs().gate, calls, [&] {
      const ScanBuffers bufs{in->data(), out->data(), planned_.scratch(), planned_.launches()};
      enqueue_scan(planned_.plan(), bufs, kind, s);
      planned_.launched();
    });
    const float device_ms = timer_.finish(s, ctx_->knobs().timeout) / static_cast<float>(calls);
    return Timing{device_ms, ms_since(t0) / calls, true};
  }

  VariantInfo info_;
  ScanKernel kernel_;
  std::shared_ptr<Context> ctx_;
  PlannedScratch<ScanPlan> planned_;
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
