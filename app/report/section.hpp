// The unit a compare report groups its rows by: an operation (primitive, scan kind, op; a sort's
// order, values and bit range), a dtype and a timing mode. Every derivation and every table is per
// section, so reduce and scan go through the same code.
#pragma once

#include <tuple>

#include "report/model.hpp"

namespace xr::app {

struct Section {
  Operation operation;  // a reduce's scan kind is always inclusive (see section_of)
  DType dtype = DType::i32;
  TimingMode mode = TimingMode::cold;

  Primitive primitive() const { return operation.primitive; }
  // Reduce sections first, then scan's, then sort's, each by scan kind, dtype, op (a sort's
  // order, values and bit range) and mode.
  std::tuple<Primitive, ScanKind, DType, Op, SortOrder, SortValues, std::uint32_t, std::uint32_t,
             TimingMode>
  key() const {
    return {operation.primitive,  operation.scan,     dtype,
            operation.op,         operation.order,    operation.values,
            operation.bits.begin, operation.bits.end, mode};
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
