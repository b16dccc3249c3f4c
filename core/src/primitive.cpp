#include "xreduce/primitive.hpp"

namespace xr {

std::string_view to_string(Primitive p) {
  switch (p) {
    case Primitive::reduce:
      return "reduce";
    case Primitive::scan:
      return "scan";
  }
  return "?";
}

std::string_view to_string(ScanKind k) {
  switch (k) {
    case ScanKind::inclusive:
      return "inclusive";
    case ScanKind::exclusive:
      return "exclusive";
  }
  return "?";
}

std::optional<Primitive> parse_primitive(std::string_view s) {
  for (Primitive p : kAllPrimitives)
    if (to_string(p) == s) return p;
  return std::nullopt;
}

std::optional<ScanKind> parse_scan_kind(std::string_view s) {
  for (ScanKind k : kAllScanKinds)
    if (to_string(k) == s) return k;
  return std::nullopt;
}

std::string Operation::describe() const {
  if (primitive == Primitive::reduce) return std::string(to_string(op));
  return std::string(to_string(scan)) + " scan " + std::string(to_string(op));
}

double bytes_moved(Primitive p, std::size_t n, DType t) {
  const double one_pass = static_cast<double>(n) * static_cast<double>(size_of(t));
  return p == Primitive::scan ? 2 * one_pass : one_pass;
}

}  // namespace xr
