// The check of a sort (sort_keys.hpp's order): the stable order of the input's keys, computed once
// per (input, order, bit range) on the host, against which every variant's output is checked
// element by element, bitwise: each output key must be the input key that order puts there, and
// for pairs each output value that key's input position (the values a sort of pairs carries are
// the keys' input positions, sort_position_value, so the check sees stability).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "xreduce/primitive.hpp"
#include "xreduce/reference.hpp"
#include "xreduce/types.hpp"

namespace xr {

// The value a sort of pairs carries for the key at input `position`: the position; a u64 holds
// its complement in the high 32 bits, so that a lost or swapped half shows.
constexpr std::uint64_t sort_position_value(SortValues v, std::uint32_t position) {
  return v == SortValues::u64 ? (std::uint64_t{~position} << 32) | position : position;
}

class SortReference {
 public:
  // Error(usage) when `bits` is not within the key (sort_call_bits).
  SortReference(HostView keys, SortOrder order, BitRange bits);
  // Checks `sorted` (the keys) and, when given, `positions` (the values, u32 or u64, each
  // sort_position_value of its key's input position) against the stable order. The message counts
  // the wrong elements and names the first (index, got, want).
  Verdict validate(HostView sorted, const HostArray* positions) const;
  // The first key of the sorted order (none for n == 0): what a report shows.
  std::optional<Value> first() const;
  // The input position of the key that lands at each output index.
  const std::vector<std::uint32_t>& permutation() const { return permutation_; }

 private:
  HostView keys_;
  std::vector<std::uint32_t> permutation_;
};

// The keys of `keys` in the stable order (a sort's expected output), for tests and `run`.
HostArray reference_sort(HostView keys, SortOrder order, BitRange bits);

// Error(usage) unless `bits` is all() or 0 <= begin < end <= the key's width: "bits B:E are an
// empty range: ..." where begin >= end, "bits B:E are not within the W bits of a <dtype> key"
// where end passes the key.
void check_sort_bits(BitRange bits, DType t);

}  // namespace xr
