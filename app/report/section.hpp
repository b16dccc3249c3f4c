// The unit a compare report groups its rows by: an operation (primitive, scan kind, op; a sort's
// order, values, bit range and the count's place), a dtype and a timing mode. Every derivation and
// every table is per section, so reduce and scan go through the same code.
#pragma once

#include <tuple>

#include "report/model.hpp"

namespace xr::app {

struct Section {
  Operation operation;  // a reduce's scan kind is always inclusive (see section_of)
  DType dtype = DType::i32;
  TimingMode mode = TimingMode::cold;

  Primitive primitive() const { return operation.primitive; }
  // Reduce sections first, then scan's, then sort's, each by dtype, then by every field of the
  // operation (Operation::identity: a scan's kind and op; a sort's order, values, bit range and
  // count's place), then by mode.
  auto key() const {
    const auto [primitive, scan, op, order, values, begin, end, on_device, bins, lower, upper,
                counts] = operation.identity();
    return std::tuple{primitive, scan,      dtype, op,    order, values, begin,
                      end,       on_device, bins,  lower, upper, counts, mode};
  }
  bool operator<(const Section& o) const { return key() < o.key(); }
  bool operator==(const Section& o) const { return key() == o.key(); }
};

// The section of a row; a reduce row's scan kind (which reduce ignores) is not part of it.
inline Section section_of(const ResultRow& row) {
  Section sec{row.operation, row.dtype, row.mode};
  if (sec.operation.primitive == Primitive::reduce) sec.operation.scan = ScanKind::inclusive;
  return sec;
}

}  // namespace xr::app
