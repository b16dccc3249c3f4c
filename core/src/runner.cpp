#include "xreduce/runner.hpp"

#include "xreduce/error.hpp"

namespace xr {

Runner::Runner(Backend& backend, Primitive primitive, std::string_view id)
    : backend_(backend), primitive_(primitive) {
  if (primitive == Primitive::reduce)
    reducer_ = backend.make_reducer(id);
  else
    scanner_ = backend.make_scanner(id);
}

Runner::Runner(Backend& backend, std::unique_ptr<Reducer> reducer)
    : backend_(backend), primitive_(Primitive::reduce), reducer_(std::move(reducer)) {}

Runner::Runner(Backend& backend, std::unique_ptr<Scanner> scanner)
    : backend_(backend), primitive_(Primitive::scan), scanner_(std::move(scanner)) {}

const VariantInfo& Runner::info() const {
  return reducer_ ? reducer_->info() : scanner_->info();
}

DeviceArray* Runner::prepare_output(DType t, std::size_t n) {
  if (!scanner_) return nullptr;
  if (!output_ || output_->dtype() != t || output_->size() != n) {
    output_.reset();  // the old one goes first: two large outputs may not fit together
    output_ = backend_.allocate(t, n);
  }
  return output_.get();
}

Timing Runner::run(DeviceArray& input, const Operation& operation) {
  return run_batch(input, operation, 1);
}

Timing Runner::run_batch(DeviceArray& input, const Operation& operation, int calls) {
  if (operation.primitive != primitive_)
    throw Error(ErrorCategory::usage, "a " + std::string(to_string(primitive_)) +
                                          " variant was asked to " +
                                          std::string(to_string(operation.primitive)));
  if (reducer_) {
    Reduction r = calls == 1 ? reducer_->reduce(input, operation.op)
                             : reducer_->reduce_batch(input, operation.op, calls);
    last_.value = r.value;
    return r.timing;
  }
  DeviceArray* out = prepare_output(input.dtype(), input.size());
  return calls == 1 ? scanner_->scan(input, *out, operation.op, operation.scan)
                    : scanner_->scan_batch(input, *out, operation.op, operation.scan, calls);
}

CompiledCall Runner::inspect(DeviceArray& input, const Operation& operation) {
  if (operation.primitive != primitive_)
    throw Error(ErrorCategory::usage, "a " + std::string(to_string(primitive_)) +
                                          " variant was asked to inspect a " +
                                          std::string(to_string(operation.primitive)));
  if (reducer_) return reducer_->inspect(input, operation.op);
  DeviceArray* out = prepare_output(input.dtype(), input.size());
  return scanner_->inspect(input, *out, operation.op, operation.scan);
}

std::string Runner::diagnostics() const {
  return scanner_ ? scanner_->diagnostics() : std::string();
}

const Outcome& Runner::outcome() {
  if (scanner_ && output_) {
    if (last_.array.dtype() != output_->dtype() || last_.array.size() != output_->size())
      last_.array = HostArray(output_->dtype(), output_->size());
    output_->read_into(last_.array);
  }
  return last_;
}

}  // namespace xr
