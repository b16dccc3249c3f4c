#include "xreduce/generate.hpp"

#include <cmath>
#include <limits>

namespace xr {

std::string_view to_string(Distribution d) {
  switch (d) {
    case Distribution::small:
      return "small";
    case Distribution::full:
      return "full";
    case Distribution::extremes:
      return "extremes";
  }
  return "?";
}

std::optional<Distribution> parse_distribution(std::string_view s) {
  for (auto d : {Distribution::small, Distribution::full, Distribution::extremes})
    if (to_string(d) == s) return d;
  return std::nullopt;
}

std::uint64_t element_hash(std::uint64_t seed, std::uint64_t index) {
  // SplitMix64 (Steele, Lea, Flood 2014) on the state seed + (index + 1) * golden gamma.
  std::uint64_t z = seed + (index + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

namespace {

template <class T>
T draw(std::uint64_t h, Distribution dist) {
  if constexpr (std::is_integral_v<T>) {
    switch (dist) {
      case Distribution::small:
        return static_cast<T>(h & 0xFF);
      case Distribution::full:  // every bit pattern of the type
        if constexpr (sizeof(T) == 8)
          return static_cast<T>(h);
        else
          return static_cast<T>(static_cast<std::uint32_t>(h >> 32));
      case Distribution::extremes: {
        const T picks[] = {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(0), T(1),
                           static_cast<T>(-1)};
        return picks[(h >> 32) % 5];
      }
    }
  } else {
    // `digits` random bits -> an exact value of T in [0, 1); 2u - 1 is exact too.
    constexpr int digits = std::numeric_limits<T>::digits;
    const double unit = std::ldexp(static_cast<double>(h >> (64 - digits)), -digits);
    switch (dist) {
      case Distribution::small:
        return T(2.0 * unit - 1.0);
      case Distribution::full:
        // [-2^20, 2^20), but [-16, 16) for f16, whose largest finite value is 65504: the sums of
        // the tests' sizes stay finite.
        return T(std::ldexp(2.0 * unit - 1.0, std::is_same_v<T, f16> ? 4 : 20));
      case Distribution::extremes: {
        // The largest exactly consecutive integers, +-1, a negative tiny value and large
        // magnitudes, all finite (f16: a subnormal and half its range).
        constexpr double kConsecutive = std::ldexp(1.0, digits);
        if constexpr (std::is_same_v<T, f16>) {
          const double picks[] = {kConsecutive, -kConsecutive, 1.0, -1.0, -0x1p-20, -16384, 16384};
          return T(picks[(h >> 8) % 7]);
        } else {
          const double large = std::is_same_v<T, double> ? 3.0e300 : 3.0e30;
          const double tiny = std::is_same_v<T, double> ? -1e-300 : -1e-30;
          const double picks[] = {kConsecutive, -kConsecutive, 1.0, -1.0, tiny, -large, large};
          return T(picks[(h >> 8) % 7]);
        }
      }
    }
  }
  return T(0);
}

}  // namespace

HostArray generate(DType dtype, std::size_t n, std::uint64_t seed, Distribution dist) {
  HostArray out(dtype, n);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto xs = out.as<T>();
    for (std::size_t i = 0; i < n; ++i) xs[i] = draw<T>(element_hash(seed, i), dist);
  });
  return out;
}

HostArray constant(DType dtype, std::size_t n, double value) {
  HostArray out(dtype, n);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto xs = out.as<T>();
    const T v = narrow<T>(value);
    for (auto& x : xs) x = v;
  });
  return out;
}

}  // namespace xr
