// The default batch of the primitive interfaces: calls one after another, each waited for (the
// CPU's batch, where a call has no submission to overlap). GPU backends override both.
#include "xreduce/backend.hpp"

#include "xreduce/error.hpp"
#include "xreduce/user_kernel.hpp"

#include "xreduce/call_check.hpp"

namespace xr {

std::string_view to_string(OverheadKind k) {
  switch (k) {
    case OverheadKind::dispatch_gpu:
      return "dispatch_gpu";
    case OverheadKind::cold_interval:
      return "cold_interval";
    case OverheadKind::submit_host:
      return "submit_host";
    case OverheadKind::batch_host:
      return "batch_host";
    case OverheadKind::round_trip:
      return "round_trip";
  }
  return "";
}

namespace {

// The per-call share of `total`, summed over `calls` calls.
Timing per_call(Timing total, int calls) {
  total.device_ms /= calls;
  total.host_ms /= calls;
  return total;
}

}  // namespace

Reduction Reducer::reduce_batch(DeviceArray& input, Op op, int calls) {
  check_calls(calls);
  Reduction last;
  Timing total{0, 0, true};
  for (int i = 0; i < calls; ++i) {
    last = reduce(input, op);
    total.device_ms += last.timing.device_ms;
    total.host_ms += last.timing.host_ms;
    total.device_timer = last.timing.device_timer;
  }
  last.timing = per_call(total, calls);
  return last;
}

Timing Scanner::scan_batch(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind,
                           int calls) {
  check_calls(calls);
  Timing total{0, 0, true};
  for (int i = 0; i < calls; ++i) {
    const Timing t = scan(input, output, op, kind);
    total.device_ms += t.device_ms;
    total.host_ms += t.host_ms;
    total.device_timer = t.device_timer;
  }
  return per_call(total, calls);
}

Timing Sorter::sort_batch(const SortRequest& request, int calls) {
  check_calls(calls);
  Timing total{0, 0, true};
  for (int i = 0; i < calls; ++i) {
    const Timing t = sort(request);
    total.device_ms += t.device_ms;
    total.host_ms += t.host_ms;
    total.device_timer = t.device_timer;
  }
  return per_call(total, calls);
}

Timing Histogrammer::histogram_batch(const HistogramRequest& request, int calls) {
  check_calls(calls);
  Timing total{0, 0, true};
  for (int i = 0; i < calls; ++i) {
    const Timing t = histogram(request);
    total.device_ms += t.device_ms;
    total.host_ms += t.host_ms;
    total.device_timer = t.device_timer;
  }
  return per_call(total, calls);
}

namespace {
constexpr const char* kHostCode = "runs on the host: no device kernel was compiled";
}  // namespace

CompiledCall Reducer::inspect(DeviceArray& /*input*/, Op /*op*/) {
  return {.passes = {}, .note = kHostCode};
}

CompiledCall Scanner::inspect(DeviceArray& /*input*/, DeviceArray& /*output*/, Op /*op*/,
                              ScanKind /*kind*/) {
  return {.passes = {}, .note = kHostCode};
}

CompiledCall Sorter::inspect(const SortRequest& /*request*/) {
  return {.passes = {}, .note = kHostCode};
}

CompiledCall Histogrammer::inspect(const HistogramRequest& /*request*/) {
  return {.passes = {}, .note = kHostCode};
}

std::unique_ptr<Sorter> Backend::make_sorter(std::string_view variant_id) {
  require_known_variant(name(), Primitive::sort, variant_id, false);
  return nullptr;  // unreachable: an unknown id throws
}

std::unique_ptr<Histogrammer> Backend::make_histogrammer(std::string_view variant_id) {
  require_known_variant(name(), Primitive::histogram, variant_id, false);
  return nullptr;  // unreachable: an unknown id throws
}

void Backend::add_kernel(const UserKernel& kernel) {
  throw Error(ErrorCategory::unsupported, "the " + std::string(name()) +
                                              " backend runs no user kernels (" +
                                              kernel.path.string() + ")");
}

}  // namespace xr
