// What every GPU library's Sort is made for (xr::cuda::Sort, xr::vulkan::Sort, xr::opencl::Sort):
// the keys, their order and bits, whether a value travels with each, and the variant.
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

// `desc` with its bits made effective (all() becomes 0 to the key's width): what a plan is made
// by. Error(usage) "bits B:E are not within the W bits of a <dtype> key" unless the bit range is
// all() or within the key. The one check of a desc, whoever made it: the tool's SortRequest and
// each library's Sort.
SortDesc check_sort_desc(const SortDesc& desc);

}  // namespace xr
