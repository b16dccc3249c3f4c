// What a Vulkan variant needs from its device, as data (Need bits, workgroup size, shared
// memory), and the one check that turns what the device lacks into words. Shared by the reduce
// and scan tables.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "vk_device_facts.hpp"
#include "xreduce/types.hpp"

namespace xr::vulkan {

// Device features a variant needs.
enum Need : std::uint32_t {
  need_subgroup_basic = 1u << 0,
  need_subgroup_shuffle = 1u << 1,
  need_subgroup_shuffle_relative = 1u << 2,
  need_subgroup_arithmetic = 1u << 3,
  need_subgroup_ballot = 1u << 4,
  need_subgroup_vote = 1u << 5,
  need_int64_atomics = 1u << 6,
};

// The requirements of a variant, for `list`: one phrase per Need bit.
std::vector<std::string> need_words(std::uint32_t needs);

// The element types every variant claims.
std::vector<DType> vulkan_dtypes();
// What a variant of `needs` requires, for `list`: need_words, then what the element types past
// 32 bits need ("f64: shaderFloat64", ...).
std::vector<std::string> requirement_words(std::uint32_t needs);

// What the device lacks to run a variant of `needs` over `t`, in words (empty: nothing): the
// features the element type needs (shaderFloat64, storageBuffer16BitAccess,
// shaderSubgroupExtendedTypes where 64-bit integers pass through subgroup operations), or shared
// memory scaled to the accumulator (`shared_bytes_4`: the variant's shared memory with 4-byte
// accumulators).
std::vector<std::string> dtype_missing(DType t, std::uint32_t needs, std::uint32_t shared_bytes_4,
                                       const DeviceFacts& facts);
// Throws Error(unsupported), naming variant `id`, `t` and the device, where dtype_missing is not
// empty.
void require_dtype(std::string_view id, DType t, std::uint32_t needs, std::uint32_t shared_bytes_4,
                   const DeviceFacts& facts);

// Why the device cannot run a variant of `needs`, workgroups of `workgroup` invocations and
// `shared_bytes` of shared memory, in words; empty when it can.
std::string missing_reason(std::uint32_t needs, std::uint32_t workgroup, std::uint32_t shared_bytes,
                           const DeviceFacts& facts);

}  // namespace xr::vulkan
