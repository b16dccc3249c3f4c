// What a call of either primitive produced (Outcome) and what it should have produced
// (Expectation): the one check the tool and the tests apply to every primitive.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "xreduce/histogram_reference.hpp"
#include "xreduce/primitive.hpp"
#include "xreduce/reference.hpp"
#include "xreduce/sort_reference.hpp"
#include "xreduce/types.hpp"

namespace xr {

// The result of one call: a reduce's value, or a scan's output, a sort's keys or a histogram's
// counts read back to the host (and a sort of pairs' values).
struct Outcome {
  Value value;
  HostArray array;
  HostArray values;

  // Bitwise equality with another outcome of the same primitive (the determinism check).
  bool bitwise_equal(const Outcome& other) const;
  // What a report shows of it: the value, the scan's last element, the sort's first key (none
  // for an empty array), the histogram's samples counted (a u64: its counts' sum).
  std::optional<Value> headline(Primitive primitive) const;
};

// The expected result of one operation on one input, computed once (in parallel for scans) and
// checked against the outcome of every variant. Keeps a view of `input`: the data must outlive it.
class Expectation {
 public:
  Expectation(HostView input, const Operation& operation);
  const Operation& operation() const { return operation_; }
  Verdict check(const Outcome& got) const;
  // The reference value, the last element of the reference scan, the first key of the sorted
  // order (none for an empty array), the samples a histogram counts.
  std::optional<Value> headline() const;

 private:
  Operation operation_;
  std::optional<Reference> reduce_;
  std::optional<ScanReference> scan_;
  std::optional<SortReference> sort_;
  std::optional<HistogramReference> histogram_;
};

}  // namespace xr
