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

Timing DeviceSorter::sort_batch(const SortArrays& arrays, const SortCall& call, int calls) {
  check_sort_call(info_, arrays, call, calls);
  prepare(arrays);
  if (arrays.keys.size() == 0) return empty_timing();
  return run(arrays, call, calls);
}

SortDesc DeviceSorter::desc_of(const SortArrays& arrays, const SortCall& call) const {
  const DType t = arrays.keys.dtype();
  return {.dtype = t,
          .count = arrays.keys.size(),
          .order = call.order,
          .bits = effective_bits(call.bits, t),
          .pairs = arrays.values != nullptr,
          .variant = info_.id};
}

CompiledCall DeviceSorter::inspect(const SortArrays& arrays, const SortCall& call) {
  check_sort_call(info_, arrays, call, 1);
  prepare(arrays);
  if (arrays.keys.size() == 0) return {.passes = {}, .note = nothing_runs_};
  return {.passes = compiled(arrays, call), .note = {}};
}

}  // namespace xr
