#include "xreduce/generate.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "xreduce/sort_keys.hpp"
#include "xreduce/sort_reference.hpp"

namespace xr {

std::string_view to_string(Distribution d) {
  switch (d) {
    case Distribution::small:
      return "small";
    case Distribution::full:
      return "full";
    case Distribution::extremes:
      return "extremes";
    case Distribution::few:
      return "few";
    case Distribution::sorted:
      return "sorted";
    case Distribution::reversed:
      return "reversed";
    case Distribution::top_digit:
      return "top-digit";
    case Distribution::bottom_digit:
      return "bottom-digit";
  }
  return "?";
}

std::optional<Distribution> parse_distribution(std::string_view s) {
  for (auto d : kAllDistributions)
    if (to_string(d) == s) return d;
  return std::nullopt;
}

bool sort_only(Distribution d) {
  return d != Distribution::small && d != Distribution::full && d != Distribution::extremes;
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
      default:  // the sort distributions are generated apart
        break;
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
      default:
        break;
    }
  }
  return T(0);
}

}  // namespace

namespace {

// Keys whose ordered bits are a random base's but for one 8-bit digit, random per element: the
// top digit (`top`) or the bottom one.
HostArray one_digit_keys(DType t, std::size_t n, std::uint64_t seed, bool top) {
  HostArray out(t, n);
  const std::size_t width = size_of(t);
  const unsigned shift = top ? static_cast<unsigned>(8 * width - 8) : 0;
  const std::uint64_t base =
      element_hash(seed, ~std::uint64_t{0}) & ~(std::uint64_t{0xFF} << shift);
  auto* bytes = static_cast<unsigned char*>(out.data());
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t digit = (element_hash(seed, i) >> 32) & 0xFF;
    const std::uint64_t key = key_of_ordered_bits(t, base | digit << shift);
    std::memcpy(bytes + i * width, &key, width);
  }
  return out;
}

// The full distribution in the sort order, ascending or descending.
HostArray ordered_keys(DType t, std::size_t n, std::uint64_t seed, bool descending) {
  HostArray keys = generate(t, n, seed, Distribution::full);
  const HostArray sorted =
      reference_sort(keys.view(), descending ? SortOrder::descending : SortOrder::ascending, {});
  return sorted;
}

}  // namespace

HostArray generate(DType dtype, std::size_t n, std::uint64_t seed, Distribution dist) {
  switch (dist) {
    case Distribution::top_digit:
    case Distribution::bottom_digit:
      return one_digit_keys(dtype, n, seed, dist == Distribution::top_digit);
    case Distribution::sorted:
    case Distribution::reversed:
      return ordered_keys(dtype, n, seed, dist == Distribution::reversed);
    default:
      break;
  }
  HostArray out(dtype, n);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto xs = out.as<T>();
    if (dist == Distribution::few) {
      // Sixteen keys; for floats two of them are -0.0 and +0.0, one key to a sort.
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t which = element_hash(seed, i) % 16;
        xs[i] = !is_integer(dtype) && which < 2
                    ? T(which == 0 ? -0.0 : 0.0)
                    : draw<T>(element_hash(seed ^ 0xF3u, which), Distribution::full);
      }
      return;
    }
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
