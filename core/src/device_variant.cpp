#include "xreduce/device_variant.hpp"

#include "xreduce/call_check.hpp"

namespace xr {

DeviceReducer::DeviceReducer(VariantInfo info, std::string nothing_runs)
    : info_(std::move(info)), nothing_runs_(std::move(nothing_runs)) {}

Reduction DeviceReducer::reduce_batch(DeviceArray& input, Op op, int calls) {
  check_reduce_call(info_, input, op, calls);
  prepare(input);
  if (input.size() == 0) return {Value::identity_of(input.dtype(), op), empty_timing()};
  return run(input, op, calls);
}

CompiledCall DeviceReducer::inspect(DeviceArray& input, Op op) {
  check_reduce_call(info_, input, op, 1);
  prepare(input);
  if (input.size() == 0) return {.passes = {}, .note = nothing_runs_};
  return {.passes = compiled(input, op), .note = {}};
}

DeviceScanner::DeviceScanner(VariantInfo info, std::string nothing_runs)
    : info_(std::move(info)), nothing_runs_(std::move(nothing_runs)) {}

Timing DeviceScanner::scan_batch(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind,
                                 int calls) {
  check_scan_call(info_, input, output, op, kind, calls);
  prepare(input, output);
  if (input.size() == 0) return empty_timing();
  return run(input, output, op, kind, calls);
}

CompiledCall DeviceScanner::inspect(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind) {
  check_scan_call(info_, input, output, op, kind, 1);
  prepare(input, output);
  if (input.size() == 0) return {.passes = {}, .note = nothing_runs_};
  return {.passes = compiled(input, output, op, kind), .note = {}};
}

DeviceSorter::DeviceSorter(VariantInfo info, std::string nothing_runs)
    : info_(std::move(info)), nothing_runs_(std::move(nothing_runs)) {}

Timing DeviceSorter::sort_batch(const SortRequest& request, int calls) {
  check_calls(calls);
  request.check_made_for(info_);
  prepare(request);
  if (request.count() == 0) return empty_timing();
  return run(request, calls);
}

CompiledCall DeviceSorter::inspect(const SortRequest& request) {
  request.check_made_for(info_);
  prepare(request);
  if (request.count() == 0) return {.passes = {}, .note = nothing_runs_, .tuning = {}};
  return {.passes = compiled(request), .note = {}, .tuning = tuning(request)};
}

Timing DeviceHistogrammer::histogram_batch(const HistogramRequest& request, int calls) {
  check_calls(calls);
  request.check_made_for(info_);
  prepare(request);
  return run(request, calls);
}

CompiledCall DeviceHistogrammer::inspect(const HistogramRequest& request) {
  request.check_made_for(info_);
  prepare(request);
  return {.passes = compiled(request), .note = {}, .tuning = tuning(request)};
}

}  // namespace xr
