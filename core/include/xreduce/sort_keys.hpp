// The total order every sort in xreduce uses, CUB's (cub::DeviceRadixSort): a key is ordered by
// its ordered bits, an unsigned integer of the key's width:
//   unsigned integers   the bits as they are;
//   signed integers     the bits with the sign bit flipped;
//   floats (f16, bf16, f32, f64)
//                       positive (sign bit clear): the bits with the sign bit flipped;
//                       negative: every bit flipped.
// So -0.0 sorts before +0.0, -inf first and +inf last among numbers, NaNs by their bits (a
// positive NaN after +inf, a negative one before -inf). A sort over a bit range [begin, end)
// orders by those bits of the ordered bits only; descending reverses the order; both keep equal
// keys in their input order (stable).
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

// The bits [begin, end) of `ordered` (end > begin), shifted down: what a sort over that range
// compares.
inline std::uint64_t digit_bits(std::uint64_t ordered, BitRange range) {
  const std::uint32_t width = range.end - range.begin;
  const std::uint64_t mask = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
  return (ordered >> range.begin) & mask;
}

}  // namespace xr
