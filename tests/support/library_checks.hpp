// What the library tests check as a consumer sees the libraries: a refusal's one line, a stable
// sort of pairs whose values are the keys' input positions, a sort's scratch size asked before
// the Sort is made, and one Sort called with every count up to the one it was made for.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
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

// The values the tests sort as 32-bit words: each key's input position, or for u64 values the
// position in the low word and its complement in the high one (so that a lost or swapped half
// shows).
inline std::vector<std::uint32_t> position_words(const std::vector<std::uint32_t>& positions,
                                                 xr::SortValues values) {
  if (values != xr::SortValues::u64) return positions;
  std::vector<std::uint32_t> words;
  words.reserve(2 * positions.size());
  for (const std::uint32_t p : positions) {
    words.push_back(p);
    words.push_back(~p);
  }
  return words;
}

// The keys read back are `keys` in the stable order `less` gives them, and (for pairs: a null
// `got_values` checks the keys alone) the values read back, as words, their input positions in
// that order (position_words of `values`).
template <class Key, class Less>
void check_stable_order(const std::vector<Key>& keys, const std::vector<Key>& got_keys,
                        const std::vector<std::uint32_t>* got_values, Less less,
                        xr::SortValues values = xr::SortValues::u32) {
  std::vector<std::uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return less(keys[a], keys[b]); });
  if (got_values) CHECK(*got_values == position_words(order, values));
  std::size_t keys_wrong = 0;
  for (std::size_t j = 0; j < keys.size(); ++j) keys_wrong += got_keys[j] != keys[order[j]];
  CHECK(keys_wrong == 0);
}

// The values read back are in the stable order `less` gives the keys, each key beside its own
// value.
template <class Key, class Less>
void check_stable_sort(const std::vector<Key>& keys, const std::vector<Key>& got_keys,
                       const std::vector<std::uint32_t>& got_values, Less less) {
  check_stable_order(keys, got_keys, &got_values, less);
}

// A sort's scratch size asked before the Sort is made (`before(desc)`, the static query) equals
// the made Sort's (`made(desc)`), over keys and pairs, 32- and 64-bit keys, both orders, a bit
// range, no keys and each variant; a request the constructor refuses is refused alike.
template <class Before, class Made>
void check_scratch_before_sort(Before before, Made made) {
  using xr::DType;
  const std::vector<xr::SortDesc> descs = {
      {.dtype = DType::f32, .count = 100'003, .values = xr::SortValues::u32},
      {.dtype = DType::i32, .count = 100'003, .values = xr::SortValues::u64},
      {.dtype = DType::u64, .count = 70'001, .order = xr::SortOrder::descending, .bits = {3, 61}},
      {.dtype = DType::i64, .count = 1000},
      {.dtype = DType::u32, .count = 0},
      {.dtype = DType::i32, .count = 1u << 20, .variant = "radix/reduce-then-scan"},
      {.dtype = DType::f32,
       .count = 5000,
       .values = xr::SortValues::u32,
       .variant = "bitonic/smem"},
  };
  for (const xr::SortDesc& desc : descs) {
    CAPTURE(std::string(xr::to_string(desc.dtype)), desc.count,
            std::string(xr::to_string(desc.values)), desc.variant);
    const auto asked = before(desc);
    CHECK(asked == made(desc));
    CHECK(asked >= 16);
  }
  CHECK_THAT(refusal([&] { before({.count = 10, .variant = "radix/none"}); }),
             Catch::Contains("radix/none"));
  CHECK_THAT(refusal([&] { before({.count = 10, .bits = {0, 33}}); }), Catch::Contains("0:33"));
}

// One Sort made for kCountCapacity keys sorts the first `count` of them, the count given on the
// host or read on the device: none, one, two, both sides of the tiles the APIs take (256, 3840
// and 7680 keys), one short of the capacity and the capacity; on the device also one past it,
// which sorts the capacity.
inline constexpr std::uint64_t kCountCapacity = 20'000;
inline std::vector<std::uint64_t> counts_to_sort(bool on_device) {
  std::vector<std::uint64_t> counts{0,    1,    2,    255,  256,  257,    3839,
                                    3840, 3841, 7679, 7680, 7681, 19'999, 20'000};
  if (on_device) counts.push_back(kCountCapacity + 1);
  return counts;
}
// The descs of the count tests: float depths with u64 values (a renderer's depths and indices),
// ascending; u32 keys descending over bits 0:20 alone.
inline std::vector<xr::SortDesc> count_descs(const std::string& variant) {
  return {{.dtype = xr::DType::f32,
           .count = kCountCapacity,
           .values = xr::SortValues::u64,
           .variant = variant},
          {.dtype = xr::DType::u32,
           .count = kCountCapacity,
           .order = xr::SortOrder::descending,
           .bits = {0, 20},
           .variant = variant}};
}
// kCountCapacity keys as 32-bit words: floats with many equal keys and both zeros, or u32 keys
// whose low 20 bits repeat.
inline std::vector<std::uint32_t> count_keys(xr::DType t) {
  std::vector<std::uint32_t> keys(kCountCapacity);
  for (std::uint64_t i = 0; i < keys.size(); ++i) {
    const std::uint64_t h = i * 2654435761u;
    keys[i] = t == xr::DType::f32
                  ? std::bit_cast<std::uint32_t>(i % 7 == 0 ? (i % 2 ? -0.0f : 0.0f)
                                                            : static_cast<float>(h % 977) - 488.0f)
                  : static_cast<std::uint32_t>(h ^ (h >> 13));
  }
  return keys;
}
// Bytes of the count tests' values: kCountCapacity of desc's (keys alone: as many as of u32
// values, bound but never read).
inline std::size_t count_value_bytes(const xr::SortDesc& desc) {
  return kCountCapacity * std::max<std::size_t>(xr::value_bytes(desc.values), 4);
}
// The count tests' values as words: each key's input position (position_words).
inline std::vector<std::uint32_t> count_values(const xr::SortDesc& desc) {
  std::vector<std::uint32_t> positions(kCountCapacity);
  std::iota(positions.begin(), positions.end(), 0u);
  return position_words(positions, desc.values);
}
// The first `count` keys sorted as `desc` orders them: `got_keys` and, for pairs, `got_values`
// (the input positions, as words: position_words) in the stable order.
inline void check_count_sort(const xr::SortDesc& desc, const std::vector<std::uint32_t>& keys,
                             std::uint64_t count, const std::vector<std::uint32_t>& got_keys,
                             const std::vector<std::uint32_t>& got_values) {
  const std::vector<std::uint32_t> first(keys.begin(), keys.begin() + count);
  if (desc.pairs()) {  // float depths, ascending
    check_stable_order(
        first, got_keys, &got_values,
        [](std::uint32_t a, std::uint32_t b) {
          return std::bit_cast<float>(a) < std::bit_cast<float>(b);
        },
        desc.values);
    return;
  }
  REQUIRE(desc.dtype == xr::DType::u32);  // u32 keys descending over bits 0 to desc.bits.end
  const std::uint32_t mask = (1u << desc.bits.end) - 1;
  check_stable_order(first, got_keys, nullptr,
                     [mask](std::uint32_t a, std::uint32_t b) { return (a & mask) > (b & mask); });
}

}  // namespace xrtest
