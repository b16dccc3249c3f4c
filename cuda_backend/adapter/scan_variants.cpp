// The tool's CUDA scanner: any id of the library's scan table (library/scan_table.cpp), planned
// with its scratch once per (n, dtype, op) through the library's Scan, every launch of a scan()
// timed between two CUDA events.
#include <iterator>
#include <optional>
#include <string>

#include "array.hpp"
#include "compiled_call.hpp"
#include "planned_scratch.hpp"
#include "scan_dispatch.hpp"
#include "scan_table.hpp"
#include "timing.hpp"
#include "variants.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/cuda/scan.hpp"
#include "xreduce/device_variant.hpp"
#include "xreduce/error.hpp"
#include "xreduce/units.hpp"

namespace xr::cuda {
namespace {

VariantInfo scan_info_of(const ScanEntry& e) {
  VariantInfo info =
      catalog_variant(Primitive::scan, e.id, {std::begin(kElementDTypes), std::end(kElementDTypes)},
                      {Op::sum, Op::min, Op::max});
  info.deterministic = e.deterministic;
  if (e.needs_cooperative_launch) info.requirements.emplace_back("cooperative launch");
  return info;
}

class CudaScanner final : public DeviceScanner {
 public:
  CudaScanner(const ScanEntry& entry, std::shared_ptr<Context> ctx)
      : DeviceScanner(scan_info_of(entry), "n = 0: nothing is launched"),
        ctx_((ctx->activate(), std::move(ctx))) {}

 private:
  void prepare(DeviceArray& input, DeviceArray& output) override {
    device_array(input, *ctx_);
    device_array(output, *ctx_);
  }

  // `calls` back-to-back scans in one interval behind the gate (timing.hpp).
  Timing run(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind, int calls) override {
    const auto t0 = HostClock::now();
    CudaArray* in = &device_array(input, *ctx_);
    CudaArray* out = &device_array(output, *ctx_);
    Scan& scan = plan(input.dtype(), op, in->size());
    const cudaStream_t s = ctx_->stream();
    timer_.record(s, planned_.launches() > 0 && ctx_->knobs().gate, calls, [&] {
      scan.enqueue(s, kind, in->data(), out->data(), planned_.scratch());
      planned_.launched();
    });
    const float device_ms = timer_.finish(s, ctx_->knobs().timeout) / static_cast<float>(calls);
    return Timing{device_ms, ms_since(t0) / calls, true};
  }

  // The plan a timed call just ran: a copy of it captured, which runs nothing; with nothing timed
  // yet (`xreduce inspect`), the call itself, run and captured.
  std::vector<CompiledPass> compiled(DeviceArray& input, DeviceArray& output, Op op,
                                     ScanKind kind) override {
    CudaArray* in = &device_array(input, *ctx_);
    CudaArray* out = &device_array(output, *ctx_);
    Scan& scan = plan(input.dtype(), op, in->size());
    Scan* enqueued = &scan;
    std::optional<Scan> copy;
    if (planned_.launches() > 0) enqueued = &copy.emplace(make_plan(input.dtype(), op, in->size()));
    const auto enqueue = [&](cudaStream_t s) {
      enqueued->enqueue(s, kind, in->data(), out->data(), planned_.scratch());
    };
    return (copy ? captured_call(*ctx_, enqueue) : compiled_call(*ctx_, enqueue)).passes;
  }

  Scan make_plan(DType t, Op op, std::size_t n) const {
    return Scan({.dtype = t, .op = op, .count = n, .variant = info().id}, ctx_->limits(),
                ScanTuning{.one_group_max = ctx_->knobs().one_group.max});
  }

  Scan& plan(DType t, Op op, std::size_t n) {
    ctx_->activate();
    const ScanOneGroupKnob& one_group = ctx_->knobs().one_group;
    if (!one_group.error.empty()) throw Error(ErrorCategory::usage, one_group.error);
    planned_.ensure(*ctx_, t, op, n, [&] { return make_plan(t, op, n); });
    return planned_.call();
  }

  std::shared_ptr<Context> ctx_;
  PlannedScratch<Scan> planned_;
  CallTimer timer_;
};

}  // namespace

std::vector<VariantInfo> cuda_scan_variants() {
  std::vector<VariantInfo> out;
  for (const ScanEntry& e : scan_table()) out.push_back(scan_info_of(e));
  return out;
}

bool has_scan_variant(std::string_view id) {
  return find_scan(id) != nullptr;
}

std::string scan_unsupported_reason(std::string_view id, const DeviceLimits& limits) {
  const ScanEntry* e = find_scan(id);
  if (!e) throw Error(ErrorCategory::usage, "unknown cuda scan variant '" + std::string(id) + "'");
  return scan_unsupported_reason(*e, limits);
}

std::unique_ptr<Scanner> make_cuda_scanner(std::string_view id, std::shared_ptr<Context> ctx) {
  const ScanEntry* e = find_scan(id);
  if (!e) throw Error(ErrorCategory::usage, "unknown cuda scan variant '" + std::string(id) + "'");
  return std::make_unique<CudaScanner>(*e, std::move(ctx));
}

}  // namespace xr::cuda
