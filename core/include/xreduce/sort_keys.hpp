// The total order every sort in xreduce uses, CUB's (cub::DeviceRadixSort): a key is ordered by
// its ordered bits, an unsigned integer of the key's width:
//   unsigned integers   the bits as they are;
//   signed integers     the bits with the sign bit flipped;
//   floats (f16, bf16, f32, f64)
//                       positive (sign bit clear): the bits with the sign bit flipped;
//                       negative: every bit flipped.
// So -inf sorts first and +inf last among numbers, NaNs by their bits (a positive NaN after +inf,
// a negative one before -inf). A key's sort bits are its ordered bits, every bit flipped for a
// descending sort, with the two float zeros one key: both take +0.0's ascending sort bits (the
// top bit alone), as CUB's digit extractor does (BaseDigitExtractor::ProcessFloatMinusZero), so
// -0.0 and +0.0 keep their input order in either direction. A sort over a bit range [begin, end)
// orders by those bits of the sort bits only; both orders keep equal keys in their input order
// (stable).
#pragma once

#include <cstdint>
#include <cstring>

#include "xreduce/primitive.hpp"
#include "xreduce/types.hpp"

namespace xr {

// The ordered bits of key `i` of `keys` (dtype `t`), widened to 64 bits.
inline std::uint64_t ordered_bits(DType t, const void* keys, std::size_t i) {
  const std::size_t width = size_of(t);
  std::uint64_t bits = 0;
  std::memcpy(&bits, static_cast<const unsigned char*>(keys) + i * width, width);
  const std::uint64_t sign = std::uint64_t{1} << (8 * width - 1);
  const std::uint64_t all = width == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << 8 * width) - 1;
  if (t == DType::u32 || t == DType::u64) return bits;
  if (is_integer(t)) return bits ^ sign;
  return (bits & sign) ? ~bits & all : bits ^ sign;
}

// The key bits (widened to 64) of a `t` whose ordered bits are `ordered`: ordered_bits' inverse.
inline std::uint64_t key_of_ordered_bits(DType t, std::uint64_t ordered) {
  const std::size_t width = size_of(t);
  const std::uint64_t sign = std::uint64_t{1} << (8 * width - 1);
  const std::uint64_t all = width == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << 8 * width) - 1;
  if (t == DType::u32 || t == DType::u64) return ordered;
  if (is_integer(t)) return ordered ^ sign;
  return (ordered & sign) ? ordered ^ sign : ~ordered & all;
}

// What a sort in `order` compares key `i` of `keys` (dtype `t`) by, before its bit range: the
// ordered bits, flipped for descending, either float zero as the top bit alone.
inline std::uint64_t sort_bits(DType t, const void* keys, std::size_t i, SortOrder order) {
  const std::uint32_t width = static_cast<std::uint32_t>(8 * size_of(t));
  const std::uint64_t top = std::uint64_t{1} << (width - 1);
  const std::uint64_t all = width == 64 ? ~std::uint64_t{0} : (top << 1) - 1;
  const std::uint64_t flip = order == SortOrder::descending ? all : 0;
  const std::uint64_t bits = ordered_bits(t, keys, i) ^ flip;
  return is_integer(t) || bits != top - 1 ? bits : top;
}

// The bits [begin, end) of `bits` (end > begin), shifted down: what a sort over that range
// compares.
inline std::uint64_t digit_bits(std::uint64_t bits, BitRange range) {
  const std::uint32_t width = range.end - range.begin;
  const std::uint64_t mask = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
  return (bits >> range.begin) & mask;
}

}  // namespace xr
