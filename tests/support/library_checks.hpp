// What the library tests check as a consumer sees the libraries: a refusal's one line, a stable
// sort of pairs whose values are the keys' input positions, and a sort's scratch size asked before
// the Sort is made.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

#include "xreduce/error.hpp"
#include "xreduce/sort_desc.hpp"

namespace xrtest {

// The message of the Error(usage) `f` throws: one line.
inline std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const xr::Error& e) {
    CHECK(e.category() == xr::ErrorCategory::usage);
    CHECK(std::string_view(e.what()).find('\n') == std::string_view::npos);
    return e.what();
  }
  FAIL("no xr::Error thrown");
  return {};
}

// The values read back are in the stable order `less` gives the keys, each key beside its own
// value.

template <class Key, class Less>
void check_stable_sort(const std::vector<Key>& keys, const std::vector<Key>& got_keys,
                       const std::vector<std::uint32_t>& got_values, Less less) {
  std::vector<std::uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return less(keys[a], keys[b]); });
  CHECK(got_values == order);
  std::size_t keys_wrong = 0;
  for (std::size_t j = 0; j < keys.size(); ++j) keys_wrong += got_keys[j] != keys[order[j]];
  CHECK(keys_wrong == 0);
}

// A sort's scratch size asked before the Sort is made (`before(desc)`, the static query) equals
// the made Sort's (`made(desc)`), over keys and pairs, 32- and 64-bit keys, both orders, a bit
// range, no keys and each variant; a request the constructor refuses is refused alike.
template <class Before, class Made>
void check_scratch_before_sort(Before before, Made made) {
  using xr::DType;
  const std::vector<xr::SortDesc> descs = {
      {.dtype = DType::f32, .count = 100'003, .pairs = true},
      {.dtype = DType::u64, .count = 70'001, .order = xr::SortOrder::descending, .bits = {3, 61}},
      {.dtype = DType::i64, .count = 1000},
      {.dtype = DType::u32, .count = 0},
      {.dtype = DType::i32, .count = 1u << 20, .variant = "radix/reduce-then-scan"},
      {.dtype = DType::f32, .count = 5000, .pairs = true, .variant = "bitonic/smem"},
  };
  for (const xr::SortDesc& desc : descs) {
    CAPTURE(std::string(xr::to_string(desc.dtype)), desc.count, desc.pairs, desc.variant);
    const auto asked = before(desc);
    CHECK(asked == made(desc));
    CHECK(asked >= 16);
  }
  CHECK_THAT(refusal([&] { before({.count = 10, .variant = "radix/none"}); }),
             Catch::Contains("radix/none"));
  CHECK_THAT(refusal([&] { before({.count = 10, .bits = {0, 33}}); }), Catch::Contains("0:33"));
}

}  // namespace xrtest
