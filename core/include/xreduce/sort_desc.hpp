// What every GPU library's Sort is made for (xr::cuda::Sort, xr::vulkan::Sort, xr::opencl::Sort):
// the keys, their order and bits, the value that travels with each (if any), and the variant.
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
  BitRange bits{};                       // of the ordered bits; all() for every bit of the key
  SortValues values = SortValues::none;  // what travels with each key: none, a u32 or a u64
  std::string variant{};                 // empty: the library's choice for the device
  bool operator==(const SortDesc&) const = default;
  bool pairs() const { return values != SortValues::none; }
};

// `desc` with its bits made effective (all() becomes 0 to the key's width): what a plan is made
// by. Error(usage) unless the bit range is all() or a non-empty range within the key
// (check_sort_bits: "bits B:E are an empty range: ...", "bits B:E are not within the W bits of a
// <dtype> key"). The one check of a desc, whoever made it: the tool's SortRequest and
// each library's Sort.
SortDesc check_sort_desc(const SortDesc& desc);

}  // namespace xr
