// The CUDA sort variants as data: id -> kernel, what it needs, how many keys it sorts, in ladder
// order (core/src/catalog.cpp). The library's Sort reads it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "device_limits.hpp"
#include "sort_dispatch.hpp"

namespace xr::cuda {

// 2^40 keys: far past any device's memory, and far enough from 2^64 that no byte count of a plan
// can overflow.
inline constexpr std::uint64_t kSortCountLimit = std::uint64_t{1} << 40;

namespace sort {
using namespace xr::sort;  // core's schedule vocabulary, beside this API's plan
struct Spec {
  std::string_view id;
  Kernel kernel{};
  std::uint64_t max_count = kSortCountLimit;
  std::string_view count_limit = "its plan counts bytes in 64 bits";  // why max_count
  int min_cc = 0;                                                     // compute capability x 10
  std::string_view requirement = {};                                  // what min_cc stands for
};
}  // namespace sort

std::span<const sort::Spec> sort_table();
const sort::Spec* find_sort(std::string_view id);
// Empty when `e` runs on the device of `limits`, else why not.
std::string sort_unsupported_reason(const sort::Spec& e, const DeviceLimits& limits);
// Empty when `e` sorts `count` keys, else why not.
std::string sort_count_reason(const sort::Spec& e, std::uint64_t count);

}  // namespace xr::cuda
