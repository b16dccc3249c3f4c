// What a call of either primitive produced (Outcome) and what it should have produced
// (Expectation): the one check the tool and the tests apply to reduce and scan alike.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "xreduce/primitive.hpp"
#include "xreduce/reference.hpp"
#include "xreduce/types.hpp"

namespace xr {

// The result of one call: a reduce's value, or a scan's output read back to the host.
struct Outcome {
  Value value;
  HostArray array;

  // Bitwise equality with another outcome of the same primitive (the determinism check).
  bool bitwise_equal(const Outcome& other) const;
  // What a report shows of it: the value, or the scan's last element (none for an empty scan).
  std::optional<Value> headline(Primitive primitive) const;
};

// The expected result of one operation on one input, computed once (in parallel for scans) and
// checked against the outcome of every variant. Keeps a view of `input`: the data must outlive it.
class Expectation {
 public:
  Expectation(HostView input, const Operation& operation);
  const Operation& operation() const { return operation_; }
  Verdict check(const Outcome& got) const;
  // The reference value, or the last element of the reference scan (none for an empty scan).
  std::optional<Value> headline() const;

 private:
  Operation operation_;
  std::optional<Reference> reduce_;
  std::optional<ScanReference> scan_;
};

}  // namespace xr
