// The documented data generator (generate.hpp): SplitMix64 of (seed, index).
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>

#include "xreduce/generate.hpp"
#include "xreduce/sort_keys.hpp"

namespace {

bool same_bytes(const xr::HostArray& a, const xr::HostArray& b) {
  return a.dtype() == b.dtype() && a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), a.bytes()) == 0;
}

}  // namespace

TEST_CASE("element_hash is SplitMix64 and never silently changes", "[unit][generate]") {
  // The published SplitMix64 sequence for seed 0: element i is output i.
  CHECK(xr::element_hash(0, 0) == 0xE220A8397B1DCDAFull);
  CHECK(xr::element_hash(0, 1) == 0x6E789E6AA1B965F4ull);
  CHECK(xr::element_hash(0, 2) == 0x06C45D188009454Full);
  // Element i of seed s depends on s + (i + 1) * gamma only.
  CHECK(xr::element_hash(0x9E3779B97F4A7C15ull, 0) == xr::element_hash(0, 1));
  CHECK(xr::element_hash(1, 0) != xr::element_hash(0, 0));
}

TEST_CASE("generate: fixed values for a fixed seed", "[unit][generate]") {
  // small i32 is the low byte of the hash: 0xAF, 0xF4, 0x4F for seed 0.
  const auto a = xr::generate(xr::DType::i32, 3, 0, xr::Distribution::small);
  CHECK(a.as<std::int32_t>()[0] == 0xAF);
  CHECK(a.as<std::int32_t>()[1] == 0xF4);
  CHECK(a.as<std::int32_t>()[2] == 0x4F);
  // full u32 is the high 32 bits of the hash.
  const auto u = xr::generate(xr::DType::u32, 2, 0, xr::Distribution::full);
  CHECK(u.as<std::uint32_t>()[0] == 0xE220A839u);
  CHECK(u.as<std::uint32_t>()[1] == 0x6E789E6Au);
  // small f32: 2 * (hash >> 40) * 2^-24 - 1.
  const auto f = xr::generate(xr::DType::f32, 1, 0, xr::Distribution::small);
  CHECK(f.as<float>()[0] == 2.0f * std::ldexp(static_cast<float>(0xE220A8u), -24) - 1.0f);
}

TEST_CASE("generate is deterministic for a seed and differs across seeds", "[unit][generate]") {
  for (xr::DType t : xr::kAllDTypes) {
    for (auto d : {xr::Distribution::small, xr::Distribution::full, xr::Distribution::extremes}) {
      INFO(xr::to_string(t) << " " << xr::to_string(d));
      const auto a = xr::generate(t, 4097, 42, d);
      const auto b = xr::generate(t, 4097, 42, d);
      const auto c = xr::generate(t, 4097, 43, d);
      CHECK(a.size() == 4097);
      CHECK(a.dtype() == t);
      CHECK(same_bytes(a, b));
      CHECK_FALSE(same_bytes(a, c));
      // Counter-based: a prefix is the shorter array.
      const auto prefix = xr::generate(t, 100, 42, d);
      CHECK(std::memcmp(prefix.data(), a.data(), prefix.bytes()) == 0);
    }
  }
  CHECK(xr::generate(xr::DType::f32, 0, 1).size() == 0);
}

TEST_CASE("generate: ranges per distribution", "[unit][generate]") {
  const std::size_t n = 20000;
  SECTION("small") {
    const auto small_i = xr::generate(xr::DType::i32, n, 7);
    for (auto v : small_i.as<std::int32_t>()) {
      REQUIRE(v >= 0);
      REQUIRE(v <= 255);
    }
    std::set<std::uint32_t> seen;
    const auto small_u = xr::generate(xr::DType::u32, n, 7);
    for (auto v : small_u.as<std::uint32_t>()) {
      REQUIRE(v <= 255u);
      seen.insert(v);
    }
    CHECK(seen.size() == 256);
    const auto small_f = xr::generate(xr::DType::f32, n, 7);
    for (float v : small_f.as<float>()) {
      REQUIRE(v >= -1.0f);
      REQUIRE(v < 1.0f);
      REQUIRE(std::ldexp(v, 23) == std::trunc(std::ldexp(v, 23)));  // on the 2^-23 grid
    }
  }
  SECTION("full") {
    const auto full_i = xr::generate(xr::DType::i32, n, 7, xr::Distribution::full);
    auto is = full_i.as<std::int32_t>();
    CHECK(std::count_if(is.begin(), is.end(), [](auto v) { return v < -(1 << 30); }) > 0);
    CHECK(std::count_if(is.begin(), is.end(), [](auto v) { return v > (1 << 30); }) > 0);
    const auto full_u = xr::generate(xr::DType::u32, n, 7, xr::Distribution::full);
    auto us = full_u.as<std::uint32_t>();
    CHECK(std::count_if(us.begin(), us.end(), [](auto v) { return v > 0xC0000000u; }) > 0);
    const auto full_f = xr::generate(xr::DType::f32, n, 7, xr::Distribution::full);
    for (float v : full_f.as<float>()) {
      REQUIRE(v >= -1048576.0f);
      REQUIRE(v < 1048576.0f);
    }
  }
  SECTION("extremes") {
    std::set<std::int32_t> si;
    const auto ext_i = xr::generate(xr::DType::i32, n, 7, xr::Distribution::extremes);
    for (auto v : ext_i.as<std::int32_t>()) si.insert(v);
    CHECK(si == std::set<std::int32_t>{INT32_MIN, -1, 0, 1, INT32_MAX});
    std::set<std::uint32_t> su;
    const auto ext_u = xr::generate(xr::DType::u32, n, 7, xr::Distribution::extremes);
    for (auto v : ext_u.as<std::uint32_t>()) su.insert(v);
    CHECK(su == std::set<std::uint32_t>{0u, 1u, UINT32_MAX});
    bool negative = false;
    const auto ext_f = xr::generate(xr::DType::f32, n, 7, xr::Distribution::extremes);
    for (float v : ext_f.as<float>()) {
      REQUIRE(std::isfinite(v));
      negative |= v < 0;
    }
    CHECK(negative);
  }
}

TEST_CASE("constant fills every element with the converted value", "[unit][generate]") {
  const auto half = xr::constant(xr::DType::f32, 1000, -0.5);
  for (float v : half.as<float>()) REQUIRE(v == -0.5f);
  const auto umax = xr::constant(xr::DType::u32, 33, 4294967295.0);
  for (auto v : umax.as<std::uint32_t>()) REQUIRE(v == UINT32_MAX);
  const auto minus3 = xr::constant(xr::DType::i32, 33, -3.0);
  for (auto v : minus3.as<std::int32_t>()) REQUIRE(v == -3);
  CHECK(xr::constant(xr::DType::i32, 0, 1.0).size() == 0);
}

TEST_CASE("distribution names round-trip", "[unit][generate]") {
  for (auto d : {xr::Distribution::small, xr::Distribution::full, xr::Distribution::extremes})
    CHECK(xr::parse_distribution(xr::to_string(d)) == d);
  CHECK_FALSE(xr::parse_distribution("uniform").has_value());
}

TEST_CASE("generate: the 64-bit and 16-bit types", "[unit][generate]") {
  const std::size_t n = 20000;
  // small floats: [-1, 1) on the type's grid (2u - 1 with `digits` random bits).
  auto on_grid = [](double v, int fraction) {
    return std::ldexp(v, fraction) == std::trunc(std::ldexp(v, fraction));
  };
  // (Each array is named: a range-for over a temporary's span would read freed memory.)
  const auto small_h = xr::generate(xr::DType::f16, n, 7);
  for (auto v : small_h.as<xr::f16>()) {
    const double d = static_cast<double>(v);
    REQUIRE(d >= -1.0);
    REQUIRE(d < 1.0);
    REQUIRE(on_grid(d, 10));
  }
  const auto small_b = xr::generate(xr::DType::bf16, n, 7);
  for (auto v : small_b.as<xr::bf16>()) {
    const double d = static_cast<double>(v);
    REQUIRE(d >= -1.0);
    REQUIRE(d < 1.0);
    REQUIRE(on_grid(d, 7));
  }
  std::set<double> distinct;
  const auto small_d = xr::generate(xr::DType::f64, n, 7);
  for (double v : small_d.as<double>()) {
    REQUIRE(v >= -1.0);
    REQUIRE(v < 1.0);
    distinct.insert(v);
  }
  CHECK(distinct.size() == n);  // 53 random bits: no repeats expected in 20000 draws
  // full: f16 stays in [-16, 16) so the tests' sums stay finite; 64-bit integers use every bit.
  const auto full_h = xr::generate(xr::DType::f16, n, 7, xr::Distribution::full);
  for (auto v : full_h.as<xr::f16>()) {
    REQUIRE(static_cast<float>(v) >= -16.0f);
    REQUIRE(static_cast<float>(v) < 16.0f);
  }
  const auto full_u = xr::generate(xr::DType::u64, n, 7, xr::Distribution::full);
  auto big = full_u.as<std::uint64_t>();
  CHECK(std::count_if(big.begin(), big.end(), [](auto v) { return v > (3ull << 62); }) > 0);
  std::set<std::int64_t> si;
  const auto ext_i = xr::generate(xr::DType::i64, n, 7, xr::Distribution::extremes);
  for (auto v : ext_i.as<std::int64_t>()) si.insert(v);
  CHECK(si == std::set<std::int64_t>{INT64_MIN, -1, 0, 1, INT64_MAX});
  for (auto t : {xr::DType::f64, xr::DType::f16, xr::DType::bf16}) {
    const auto ext = xr::generate(t, n, 7, xr::Distribution::extremes);
    xr::visit_dtype(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (T v : ext.as<T>()) REQUIRE(std::isfinite(static_cast<double>(v)));
    });
  }
  const auto h = xr::constant(xr::DType::f16, 9, 0.1);  // rounded once, to nearest even
  for (auto v : h.as<xr::f16>()) REQUIRE(v.bits == 0x2e66);
}

TEST_CASE("generate: the sort distributions", "[unit][generate][sort]") {
  // few: at most 16 distinct keys; a float's hold both zeros, one key to a sort.
  const xr::HostArray few = xr::generate(xr::DType::f32, 4096, 7, xr::Distribution::few);
  std::set<std::uint32_t> distinct;
  for (float x : few.as<float>()) distinct.insert(std::bit_cast<std::uint32_t>(x));
  CHECK(distinct.size() <= 16);
  CHECK(distinct.count(0x80000000u) == 1);
  CHECK(distinct.count(0u) == 1);
  // top_digit / bottom_digit: the sort bits differ in that digit only.
  for (auto [dist, keep] : {std::pair{xr::Distribution::top_digit, 0x00FFFFFFu},
                            std::pair{xr::Distribution::bottom_digit, 0xFFFFFF00u}}) {
    const xr::HostArray keys = xr::generate(xr::DType::f32, 1000, 3, dist);
    std::set<std::uint64_t> rest, digits;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const std::uint64_t b =
          xr::sort_bits(xr::DType::f32, keys.data(), i, xr::SortOrder::ascending);
      rest.insert(b & keep);
      digits.insert(b & ~std::uint64_t{keep} & 0xFFFFFFFFu);
    }
    CHECK(rest.size() == 1);
    CHECK(digits.size() > 100);
  }
  // sorted / reversed: in the sort order already.
  const xr::HostArray up = xr::generate(xr::DType::i64, 1000, 5, xr::Distribution::sorted);
  CHECK(std::is_sorted(up.as<std::int64_t>().begin(), up.as<std::int64_t>().end()));
  const xr::HostArray down = xr::generate(xr::DType::i64, 1000, 5, xr::Distribution::reversed);
  CHECK(std::is_sorted(down.as<std::int64_t>().rbegin(), down.as<std::int64_t>().rend()));
}
