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
      case Distribution::full:
        return static_cast<T>(static_cast<std::uint32_t>(h >> 32));
      case Distribution::extremes: {
        const T picks[] = {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(0), T(1),
                           static_cast<T>(-1)};
        return picks[(h >> 32) % 5];
      }
    }
  } else {
    // 24 random bits -> an exact float in [0, 1).
    float unit = std::ldexp(static_cast<float>(h >> 40), -24);
    switch (dist) {
      case Distribution::small:
        return 2.0f * unit - 1.0f;
      case Distribution::full:
        return std::ldexp(2.0f * unit - 1.0f, 20);
      case Distribution::extremes: {
        const float picks[] = {16777216.0f, -16777216.0f, 1.0f, -1.0f, -1e-30f, -3.0e30f, 3.0e30f};
        return picks[(h >> 8) % 7];
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
    T v = static_cast<T>(value);
    for (auto& x : xs) x = v;
  });
  return out;
}

}  // namespace xr
