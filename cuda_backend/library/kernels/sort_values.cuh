// What travels with a sort's keys, as the kernels' `Value` template argument: KeysOnly for keys
// alone, std::uint32_t or std::uint64_t for a value of that width. Values are moved as raw bits,
// never read as numbers, so one instantiation per width serves every value type of it.
#pragma once

#include <cstdint>
#include <type_traits>

#include "xreduce/error.hpp"
#include "xreduce/primitive.hpp"

namespace xr::cuda::kernels {

// No value: the kernels load, stage and store the keys alone.
struct KeysOnly {};

template <class Value>
inline constexpr bool kCarriesValues = !std::is_same_v<Value, KeysOnly>;

// Calls f.template operator()<Value>() with the kernels' type for `v`.
template <class F>
void with_value_type(SortValues v, F&& f) {
  switch (v) {
    case SortValues::none:
      return f.template operator()<KeysOnly>();
    case SortValues::u32:
      return f.template operator()<std::uint32_t>();
    case SortValues::u64:
      return f.template operator()<std::uint64_t>();
  }
  throw Error(ErrorCategory::unsupported, "cuda: no sort kernel for these values");
}

}  // namespace xr::cuda::kernels
