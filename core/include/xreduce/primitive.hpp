// The primitives xreduce measures, as an axis like dtype and op (docs/design.md,
// "Where a new primitive goes"): reduce (n elements -> one value), scan (n elements -> n
// prefixes, inclusive or exclusive), sort (n keys -> n keys in order, optionally with a u32
// or u64 value carried by each key) and histogram (n samples -> a count per bin, histogram.hpp).
// A variant id is unique within its primitive; `cpu/sequential` exists for each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include "xreduce/histogram.hpp"
#include "xreduce/types.hpp"

namespace xr {

enum class Primitive : std::uint8_t { reduce, scan, sort, histogram };
inline constexpr Primitive kAllPrimitives[] = {Primitive::reduce, Primitive::scan, Primitive::sort,
                                               Primitive::histogram};

// inclusive: out[i] = x[0] op ... op x[i]; exclusive: out[0] = identity, out[i] = x[0] op ... op
// x[i-1] (CUB's ExclusiveScan with the op's identity as the initial value).
enum class ScanKind : std::uint8_t { inclusive, exclusive };
inline constexpr ScanKind kAllScanKinds[] = {ScanKind::inclusive, ScanKind::exclusive};

// A sort's order under the keys' total order (sort_keys.hpp); both are stable: equal keys keep
// their input order (CUB's DeviceRadixSort SortKeys and SortKeysDescending).
enum class SortOrder : std::uint8_t { ascending, descending };
inline constexpr SortOrder kAllSortOrders[] = {SortOrder::ascending, SortOrder::descending};

// What travels with each key of a sort: nothing, or a 32- or 64-bit value moved as it is (its
// bits never read: any 4- or 8-byte type), in the keys' order (CUB's SortPairs).
enum class SortValues : std::uint8_t { none, u32, u64 };
inline constexpr SortValues kAllSortValues[] = {SortValues::none, SortValues::u32, SortValues::u64};
// Bytes of one value: 0, 4 or 8.
constexpr std::size_t value_bytes(SortValues v) {
  return v == SortValues::u64 ? 8 : (v == SortValues::u32 ? 4 : 0);
}

// The key bits a sort orders by, [begin, end) of the key's ordered bits (sort_keys.hpp), as
// CUB's begin_bit and end_bit; end == 0 means every bit of the key.
struct BitRange {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  bool operator==(const BitRange&) const = default;
  bool all() const { return begin == 0 && end == 0; }
};

std::string_view to_string(Primitive p);
std::string_view to_string(ScanKind k);
std::string_view to_string(SortOrder o);   // "asc", "desc"
std::string_view to_string(SortValues v);  // "none", "u32", "u64"
std::optional<Primitive> parse_primitive(std::string_view s);
std::optional<ScanKind> parse_scan_kind(std::string_view s);
std::optional<SortOrder> parse_sort_order(std::string_view s);
std::optional<SortValues> parse_sort_values(std::string_view s);
// "B:E" with 0 <= B < E; nullopt otherwise (the key's width is checked against the dtype later).
std::optional<BitRange> parse_bit_range(std::string_view s);
// "0:32" style text of `bits` over `t` (every bit: "0:<width>").
std::string to_string(BitRange bits, DType t);
// The effective range of `bits` over keys of `t`: every bit of the key when bits.all().
BitRange effective_bits(BitRange bits, DType t);
// One spelling per range: a range over every bit of a `t` key (0:32 of an i32) is BitRange{}, as
// the default is, so the two are one operation in every report.
BitRange canonical_bits(BitRange bits, DType t);

// What one call computes, apart from the data: the primitive, its operator (reduce, scan), the
// kind (scan), the order, bit range and values (sort), and the levels (histogram). The point of a
// measurement is an Operation, a variant, a dtype and n.
struct Operation {
  Primitive primitive = Primitive::reduce;
  Op op = Op::sum;
  ScanKind scan = ScanKind::inclusive;     // scan only
  SortOrder order = SortOrder::ascending;  // sort only
  BitRange bits{};                         // sort only
  // sort only: the value that travels with each key (the runner's: the key's input position; a
  // u64 holds its complement in the high 32 bits, so a lost or swapped half shows).
  SortValues values = SortValues::none;
  // sort and histogram: the count read by the GPU from a device word (the libraries' indirect
  // calls), not given by the host.
  bool count_on_device = false;
  HistogramLevels levels{};  // histogram only: its bins, range and counters

  bool operator==(const Operation&) const = default;
  // Every field, as one tuple: what a report groups, matches and gates its rows by, so that two
  // different operations (a count on the host and one on the device) never meet in one table,
  // one diff row or one line.
  auto identity() const {
    return std::tuple{primitive,   scan,         op,           order,
                      values,      bits.begin,   bits.end,     count_on_device,
                      levels.bins, levels.lower, levels.upper, levels.counts};
  }
  bool pairs() const { return values != SortValues::none; }
  // "sum", "inclusive scan sum", "histogram of 256 bins over 0:256": how tables title a section.
  std::string describe() const;
};

// Bytes the primitive must move through device memory, the same formula on every backend (GB/s
// is bytes_moved over the median time): reduce reads n elements; scan reads n and writes n; sort
// is an LSD radix sort's bound with 8-bit digits: the keys read once for the histograms, then
// read and written once per digit of the bit range, and the values read and written once per
// digit (36 bytes per u32 key, 68 per u32 pair, 100 per u32 key with a u64 value); a histogram
// reads its samples once (GB/s as samples read: the counts are small and stay in cache).
double bytes_moved(const Operation& operation, std::size_t n, DType t);
// The 8-bit digit passes of a radix sort over `bits` of keys of `t`.
std::uint32_t radix_passes(BitRange bits, DType t);

}  // namespace xr
