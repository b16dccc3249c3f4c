// What every GPU library's Sort is made for (xr::cuda::Sort, xr::vulkan::Sort): the keys, their
// order and bits, whether a value travels with each, and the variant.
#pragma once

#include <cstdint>
#include <string>

#include "xreduce/primitive.hpp"
#include "xreduce/types.hpp"

namespace xr {

struct SortDesc {
  DType dtype = DType::u32;  // the keys'
  std::uint64_t count = 0;   // 0: the Sort launches (records) nothing
  SortOrder order = SortOrder::ascending;
  BitRange bits{};        // of the ordered bits; all() for every bit of the key
  bool pairs = false;     // a u32 value travels with each key
  std::string variant{};  // empty: the library's choice for the device
  bool operator==(const SortDesc&) const = default;
};

}  // namespace xr
