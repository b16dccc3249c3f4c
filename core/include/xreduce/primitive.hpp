// The primitives xreduce measures, as an axis like dtype and op (docs/design.md,
// "Where a new primitive goes"): reduce (n elements -> one value) and scan (n elements -> n
// prefixes, inclusive or exclusive). A variant id is unique within its primitive; `cpu/sequential`
// exists for both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "xreduce/types.hpp"

namespace xr {

enum class Primitive : std::uint8_t { reduce, scan };
inline constexpr Primitive kAllPrimitives[] = {Primitive::reduce, Primitive::scan};

// inclusive: out[i] = x[0] op ... op x[i]; exclusive: out[0] = identity, out[i] = x[0] op ... op
// x[i-1] (CUB's ExclusiveScan with the op's identity as the initial value).
enum class ScanKind : std::uint8_t { inclusive, exclusive };
inline constexpr ScanKind kAllScanKinds[] = {ScanKind::inclusive, ScanKind::exclusive};

std::string_view to_string(Primitive p);
std::string_view to_string(ScanKind k);
std::optional<Primitive> parse_primitive(std::string_view s);
std::optional<ScanKind> parse_scan_kind(std::string_view s);

// What one call computes, apart from the data: the primitive, its operator and (scan only) the
// kind. The point of a measurement is an Operation, a variant, a dtype and n.
struct Operation {
  Primitive primitive = Primitive::reduce;
  Op op = Op::sum;
  ScanKind scan = ScanKind::inclusive;  // ignored by reduce

  bool operator==(const Operation&) const = default;
  // "sum", "inclusive scan sum": how tables title a section.
  std::string describe() const;
};

// Bytes the primitive must move through device memory, the same formula on every backend (GB/s
// is bytes_moved over the median time): reduce reads n elements; scan reads n and writes n.
double bytes_moved(Primitive p, std::size_t n, DType t);

}  // namespace xr
