#include "xreduce/primitive.hpp"

#include <string>

namespace xr {

std::string_view to_string(Primitive p) {
  switch (p) {
    case Primitive::reduce:
      return "reduce";
    case Primitive::scan:
      return "scan";
    case Primitive::sort:
      return "sort";
    case Primitive::histogram:
      return "histogram";
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

std::string_view to_string(SortOrder o) {
  return o == SortOrder::ascending ? "asc" : "desc";
}

std::string_view to_string(SortValues v) {
  return v == SortValues::none ? "none" : (v == SortValues::u32 ? "u32" : "u64");
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

std::optional<SortOrder> parse_sort_order(std::string_view s) {
  for (SortOrder o : kAllSortOrders)
    if (to_string(o) == s) return o;
  return std::nullopt;
}

std::optional<SortValues> parse_sort_values(std::string_view s) {
  for (SortValues v : kAllSortValues)
    if (to_string(v) == s) return v;
  return std::nullopt;
}

std::optional<BitRange> parse_bit_range(std::string_view s) {
  const std::size_t colon = s.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  auto number = [](std::string_view t) -> std::optional<std::uint32_t> {
    if (t.empty() || t.size() > 3) return std::nullopt;
    std::uint32_t v = 0;
    for (char c : t) {
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + static_cast<std::uint32_t>(c - '0');
    }
    return v;
  };
  const auto begin = number(s.substr(0, colon)), end = number(s.substr(colon + 1));
  if (!begin || !end || *begin >= *end) return std::nullopt;
  return BitRange{*begin, *end};
}

BitRange effective_bits(BitRange bits, DType t) {
  if (bits.all()) return {0, static_cast<std::uint32_t>(8 * size_of(t))};
  return bits;
}

BitRange canonical_bits(BitRange bits, DType t) {
  return effective_bits(bits, t) == effective_bits({}, t) ? BitRange{} : bits;
}

std::string to_string(BitRange bits, DType t) {
  const BitRange b = effective_bits(bits, t);
  return std::to_string(b.begin) + ":" + std::to_string(b.end);
}

std::uint32_t radix_passes(BitRange bits, DType t) {
  const BitRange b = effective_bits(bits, t);
  return (b.end - b.begin + 7) / 8;
}

std::string Operation::describe() const {
  switch (primitive) {
    case Primitive::reduce:
      return std::string(to_string(op));
    case Primitive::scan:
      return std::string(to_string(scan)) + " scan " + std::string(to_string(op));
    case Primitive::sort:
      break;
    case Primitive::histogram: {
      std::string text =
          "histogram of " + std::to_string(levels.bins) + " bins over " + range_text(levels);
      if (levels.counts == HistogramCounts::u64) text += ", u64 counts";
      if (count_on_device) text += ", count on the device";
      return text;
    }
  }
  std::string text = std::string(to_string(order)) + " sort";
  if (values == SortValues::u32) text += " of pairs";
  if (values == SortValues::u64) text += " of pairs, u64 values";
  if (!bits.all()) text += ", bits " + std::to_string(bits.begin) + ":" + std::to_string(bits.end);
  if (count_on_device) text += ", count on the device";
  return text;
}

double bytes_moved(const Operation& operation, std::size_t n, DType t) {
  const double keys = static_cast<double>(n) * static_cast<double>(size_of(t));
  switch (operation.primitive) {
    case Primitive::reduce:
    case Primitive::histogram:
      return keys;
    case Primitive::scan:
      return 2 * keys;
    case Primitive::sort:
      break;
  }
  const double passes = radix_passes(operation.bits, t);
  const double values =
      2 * passes * static_cast<double>(value_bytes(operation.values)) * static_cast<double>(n);
  return keys * (1 + 2 * passes) + values;
}

}  // namespace xr
