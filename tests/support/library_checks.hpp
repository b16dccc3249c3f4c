// What the library tests check as a consumer sees the libraries: a refusal's one line, and a
// stable sort of pairs whose values are the keys' input positions.
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

}  // namespace xrtest
