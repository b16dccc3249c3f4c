// The host's 16-bit floats: IEEE binary16 (f16) and bfloat16 (bf16), as storage types. Arithmetic
// is never done in them: every backend widens to float (the device accumulator) or double (the
// host's), and a result is rounded back once, to nearest even. The same 2-byte layout as CUDA's
// __half / __nv_bfloat16 and GLSL's float16_t, so arrays of them go to devices as they are.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace xr {

namespace detail {

// Rounds x to nearest even in a binary format with kExp exponent bits and kFrac fraction bits
// (f16: 5, 10; bf16: 8, 7), returning its 16 bits. Handles subnormals, overflow to infinity and
// NaN (quiet). Exact for every double, so a double result is rounded once, not through float.
template <int kExp, int kFrac>
std::uint16_t round_to_bits(double x) {
  const std::uint16_t sign = std::signbit(x) ? std::uint16_t(0x8000) : std::uint16_t(0);
  constexpr std::uint16_t kInf = std::uint16_t(((1u << kExp) - 1) << kFrac);
  if (std::isnan(x)) return std::uint16_t(sign | kInf | (1u << (kFrac - 1)));
  const double a = std::fabs(x);
  if (std::isinf(a)) return std::uint16_t(sign | kInf);
  if (a == 0) return sign;
  constexpr int kBias = (1 << (kExp - 1)) - 1;
  int e = 0;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1): the unbiased exponent is e - 1
  const int exponent = e - 1 < 1 - kBias ? 1 - kBias : e - 1;  // subnormals share the minimum
  // a in units of the format's quantum at that exponent, rounded to nearest even (the default
  // rounding mode); the encoding is continuous, so a carry into the next binade (or from the
  // subnormals into the normals, or into infinity) falls out of the addition.
  const double units = std::nearbyint(std::ldexp(a, kFrac - exponent));
  const std::uint32_t biased = e - 1 < 1 - kBias ? 0u : std::uint32_t(exponent + kBias - 1);
  std::uint32_t bits = (biased << kFrac) + std::uint32_t(units);
  if (bits >= kInf) bits = kInf;
  return std::uint16_t(sign | bits);
}

}  // namespace detail

// IEEE 754 binary16: 1 sign, 5 exponent, 10 fraction bits (NumPy's float16, '<f2').
struct f16 {
  std::uint16_t bits;  // uninitialised by default, like float: arrays of it stay trivial

  f16() = default;
  explicit f16(double x) : bits(detail::round_to_bits<5, 10>(x)) {}
  static f16 from_bits(std::uint16_t b) {
    f16 h;
    h.bits = b;
    return h;
  }
  explicit operator float() const {
    const std::uint32_t sign = std::uint32_t(bits & 0x8000u) << 16;
    const std::uint32_t exp = (bits >> 10) & 0x1fu;
    const std::uint32_t frac = bits & 0x3ffu;
    if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (frac << 13));
    if (exp == 0) {  // zero or subnormal: frac * 2^-24, exact in float
      const float mag = std::ldexp(static_cast<float>(frac), -24);
      return sign ? -mag : mag;
    }
    return std::bit_cast<float>(sign | ((exp + 112) << 23) | (frac << 13));
  }
  explicit operator double() const { return static_cast<float>(*this); }
};

// bfloat16: the top half of a float (1 sign, 8 exponent, 7 fraction bits). NumPy has no bf16:
// files hold it as raw little-endian .bin.
struct bf16 {
  std::uint16_t bits;  // uninitialised by default, like float: arrays of it stay trivial

  bf16() = default;
  explicit bf16(double x) : bits(detail::round_to_bits<8, 7>(x)) {}
  static bf16 from_bits(std::uint16_t b) {
    bf16 h;
    h.bits = b;
    return h;
  }
  explicit operator float() const { return std::bit_cast<float>(std::uint32_t(bits) << 16); }
  explicit operator double() const { return static_cast<float>(*this); }
};

// Comparisons by value (min/max and tests); -0 == +0 and NaN unordered, as for float.
template <class H>
concept HalfFloat = std::is_same_v<H, f16> || std::is_same_v<H, bf16>;
template <HalfFloat H>
bool operator<(H a, H b) {
  return static_cast<float>(a) < static_cast<float>(b);
}
template <HalfFloat H>
bool operator==(H a, H b) {
  return static_cast<float>(a) == static_cast<float>(b);
}

}  // namespace xr

// numeric_limits for the two, so generic code (identities, bounds) treats them as floats.
template <>
struct std::numeric_limits<xr::f16> {
  static constexpr bool is_specialized = true;
  static constexpr bool is_integer = false;
  static constexpr bool has_infinity = true;
  static constexpr int digits = 11;
  static xr::f16 infinity() { return xr::f16::from_bits(0x7c00); }
  static xr::f16 max() { return xr::f16::from_bits(0x7bff); }  // 65504
  static xr::f16 lowest() { return xr::f16::from_bits(0xfbff); }
  static xr::f16 epsilon() { return xr::f16::from_bits(0x1400); }  // 2^-10
};
template <>
struct std::numeric_limits<xr::bf16> {
  static constexpr bool is_specialized = true;
  static constexpr bool is_integer = false;
  static constexpr bool has_infinity = true;
  static constexpr int digits = 8;
  static xr::bf16 infinity() { return xr::bf16::from_bits(0x7f80); }
  static xr::bf16 max() { return xr::bf16::from_bits(0x7f7f); }
  static xr::bf16 lowest() { return xr::bf16::from_bits(0xff7f); }
  static xr::bf16 epsilon() { return xr::bf16::from_bits(0x3c00); }  // 2^-7
};
