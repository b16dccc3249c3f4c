// One variant of any primitive bound to its backend: the single seam through which the harness,
// the tool and the tests run reduce, scan, sort and histogram alike.
#pragma once

#include <memory>
#include <string_view>

#include "xreduce/backend.hpp"
#include "xreduce/check.hpp"
#include "xreduce/histogram_request.hpp"
#include "xreduce/sort_request.hpp"

namespace xr {

class Runner {
 public:
  // Backend::make_reducer, make_scanner, make_sorter or make_histogrammer by `primitive`; their
  // errors pass through
  // (usage for an unknown id, unsupported when the device cannot run it).
  Runner(Backend& backend, Primitive primitive, std::string_view id);
  // A variant made elsewhere (a test's own Reducer or Scanner); `backend` allocates outputs.
  Runner(Backend& backend, std::unique_ptr<Reducer> reducer);
  Runner(Backend& backend, std::unique_ptr<Scanner> scanner);
  Runner(Backend& backend, std::unique_ptr<Sorter> sorter);
  Runner(Backend& backend, std::unique_ptr<Histogrammer> histogrammer);
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  const VariantInfo& info() const;
  Primitive primitive() const { return primitive_; }

  // A scan's output or a sort's sorted keys for n elements of `t`, allocated once and again only
  // when the dtype or size change; null for reduce. Tests poison it before a run to see every
  // element written.
  DeviceArray* prepare_output(DType t, std::size_t n);
  // A sort of pairs' output values for n keys (u32 or u64), allocated as prepare_output; the
  // values sorted are the keys' input positions (sort_position_value), uploaded once per n and
  // width.
  DeviceArray* prepare_sorted_values(std::size_t n, SortValues values);

  // A histogram's counts: levels.bins counters of the levels' width, allocated as
  // prepare_output.
  DeviceArray* prepare_counts(const HistogramLevels& levels);

  // One call on `input` (operation.primitive must be this runner's, else Error(usage)). Scans
  // and sorts write into prepare_output(input's dtype and size), sorts of pairs their values
  // into prepare_sorted_values(n, operation.values), histograms into
  // prepare_counts(operation.levels).
  Timing run(DeviceArray& input, const Operation& operation);
  // `calls` identical calls back to back, the Timing per call (Reducer::reduce_batch,
  // Scanner::scan_batch); outcome() is then the last call's.
  Timing run_batch(DeviceArray& input, const Operation& operation, int calls);

  // What the last run produced: its value, or its output read back to the host (blocking, into
  // a host array the runner keeps, so repeated reads do not allocate).
  const Outcome& outcome();

  // What one run() of `input` compiled into, pass by pass (Reducer::inspect, Scanner::inspect
  // into prepare_output's array).
  CompiledCall inspect(DeviceArray& input, const Operation& operation);
  // The variant's counters so far (Scanner::diagnostics); empty for reduce.
  std::string diagnostics() const;

 private:
  Backend& backend_;
  Primitive primitive_;
  std::unique_ptr<Reducer> reducer_;
  std::unique_ptr<Scanner> scanner_;
  std::unique_ptr<Sorter> sorter_;
  std::unique_ptr<Histogrammer> histogrammer_;
  std::unique_ptr<DeviceArray> output_;
  std::unique_ptr<DeviceArray> positions_;      // a sort of pairs' values: positions 0 to n - 1
  std::unique_ptr<DeviceArray> sorted_values_;  // and where they go
  bool last_pairs_ = false;
  Outcome last_;

  // The sort `operation` asks of this runner's sorter over `keys`, into prepare_output (and
  // prepare_sorted_values for pairs), checked once (SortRequest::make).
  SortRequest sort_request(DeviceArray& keys, const Operation& operation);
  HistogramRequest histogram_request(DeviceArray& samples, const Operation& operation);
  void check_primitive(const Operation& operation, std::string_view what) const;
};

}  // namespace xr
