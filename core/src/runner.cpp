#include "xreduce/runner.hpp"

#include <numeric>

#include "xreduce/error.hpp"
#include "xreduce/sort_reference.hpp"

namespace xr {

Runner::Runner(Backend& backend, Primitive primitive, std::string_view id)
    : backend_(backend), primitive_(primitive) {
  switch (primitive) {
    case Primitive::reduce:
      reducer_ = backend.make_reducer(id);
      break;
    case Primitive::scan:
      scanner_ = backend.make_scanner(id);
      break;
    case Primitive::sort:
      sorter_ = backend.make_sorter(id);
      break;
    case Primitive::histogram:
      histogrammer_ = backend.make_histogrammer(id);
      break;
  }
}

Runner::Runner(Backend& backend, std::unique_ptr<Reducer> reducer)
    : backend_(backend), primitive_(Primitive::reduce), reducer_(std::move(reducer)) {}

Runner::Runner(Backend& backend, std::unique_ptr<Scanner> scanner)
    : backend_(backend), primitive_(Primitive::scan), scanner_(std::move(scanner)) {}

Runner::Runner(Backend& backend, std::unique_ptr<Sorter> sorter)
    : backend_(backend), primitive_(Primitive::sort), sorter_(std::move(sorter)) {}

Runner::Runner(Backend& backend, std::unique_ptr<Histogrammer> histogrammer)
    : backend_(backend), primitive_(Primitive::histogram), histogrammer_(std::move(histogrammer)) {}

const VariantInfo& Runner::info() const {
  if (reducer_) return reducer_->info();
  if (histogrammer_) return histogrammer_->info();
  return scanner_ ? scanner_->info() : sorter_->info();
}

DeviceArray* Runner::prepare_output(DType t, std::size_t n) {
  if (reducer_) return nullptr;
  if (!output_ || output_->dtype() != t || output_->size() != n) {
    output_.reset();  // the old one goes first: two large outputs may not fit together
    output_ = backend_.allocate(t, n);
  }
  return output_.get();
}

namespace {

// The values of a sort of pairs: each key's input position (sort_position_value).
HostArray position_values(SortValues values, std::size_t n) {
  if (values == SortValues::u64) {
    HostArray positions(DType::u64, n);
    auto p = positions.as<std::uint64_t>();
    for (std::size_t i = 0; i < n; ++i)
      p[i] = sort_position_value(values, static_cast<std::uint32_t>(i));
    return positions;
  }
  HostArray positions(DType::u32, n);
  auto p = positions.as<std::uint32_t>();
  std::iota(p.begin(), p.end(), std::uint32_t{0});
  return positions;
}

}  // namespace

DeviceArray* Runner::prepare_counts(const HistogramLevels& levels) {
  return prepare_output(counts_dtype(levels.counts), levels.bins);
}

DeviceArray* Runner::prepare_sorted_values(std::size_t n, SortValues values) {
  const DType t = values == SortValues::u64 ? DType::u64 : DType::u32;
  if (!positions_ || positions_->size() != n || positions_->dtype() != t) {
    positions_.reset();
    sorted_values_.reset();
    positions_ = backend_.upload(position_values(values, n).view());
    sorted_values_ = backend_.allocate(t, n);
  }
  return sorted_values_.get();
}

void Runner::check_primitive(const Operation& operation, std::string_view what) const {
  if (operation.primitive != primitive_)
    throw Error(ErrorCategory::usage, "a " + std::string(to_string(primitive_)) +
                                          " variant was asked to " + std::string(what) +
                                          std::string(to_string(operation.primitive)));
}

SortRequest Runner::sort_request(DeviceArray& keys, const Operation& operation) {
  DeviceArray* out = prepare_output(keys.dtype(), keys.size());
  DeviceArray* sorted_values =
      operation.pairs() ? prepare_sorted_values(keys.size(), operation.values) : nullptr;
  return SortRequest::make(sorter_->info(), keys, *out,
                           operation.pairs() ? positions_.get() : nullptr, sorted_values,
                           operation.order, operation.bits, operation.count_on_device);
}

HistogramRequest Runner::histogram_request(DeviceArray& samples, const Operation& operation) {
  return HistogramRequest::make(histogrammer_->info(), samples, *prepare_counts(operation.levels),
                                operation.levels, operation.count_on_device);
}

Timing Runner::run(DeviceArray& input, const Operation& operation) {
  return run_batch(input, operation, 1);
}

Timing Runner::run_batch(DeviceArray& input, const Operation& operation, int calls) {
  check_primitive(operation, "");
  if (reducer_) {
    Reduction r = calls == 1 ? reducer_->reduce(input, operation.op)
                             : reducer_->reduce_batch(input, operation.op, calls);
    last_.value = r.value;
    return r.timing;
  }
  if (sorter_) {
    const SortRequest request = sort_request(input, operation);
    last_pairs_ = operation.pairs();
    return calls == 1 ? sorter_->sort(request) : sorter_->sort_batch(request, calls);
  }
  if (histogrammer_) {
    const HistogramRequest request = histogram_request(input, operation);
    return calls == 1 ? histogrammer_->histogram(request)
                      : histogrammer_->histogram_batch(request, calls);
  }
  DeviceArray* out = prepare_output(input.dtype(), input.size());
  return calls == 1 ? scanner_->scan(input, *out, operation.op, operation.scan)
                    : scanner_->scan_batch(input, *out, operation.op, operation.scan, calls);
}

CompiledCall Runner::inspect(DeviceArray& input, const Operation& operation) {
  check_primitive(operation, "inspect a ");
  if (reducer_) return reducer_->inspect(input, operation.op);
  if (sorter_) return sorter_->inspect(sort_request(input, operation));
  if (histogrammer_) return histogrammer_->inspect(histogram_request(input, operation));
  DeviceArray* out = prepare_output(input.dtype(), input.size());
  return scanner_->inspect(input, *out, operation.op, operation.scan);
}

std::string Runner::diagnostics() const {
  if (sorter_) return sorter_->diagnostics();
  if (histogrammer_) return histogrammer_->diagnostics();
  return scanner_ ? scanner_->diagnostics() : std::string();
}

namespace {

// `array` read back into `into`, reshaped to its dtype and size first.
void read_back(const DeviceArray& array, HostArray& into) {
  if (into.dtype() != array.dtype() || into.size() != array.size())
    into = HostArray(array.dtype(), array.size());
  array.read_into(into);
}

}  // namespace

const Outcome& Runner::outcome() {
  if (!reducer_ && output_) read_back(*output_, last_.array);
  if (sorter_ && last_pairs_ && sorted_values_)
    read_back(*sorted_values_, last_.values);
  else
    last_.values = HostArray();
  return last_;
}

}  // namespace xr
