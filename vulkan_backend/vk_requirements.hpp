// What a Vulkan variant needs from its device, as data (Need bits, workgroup size, shared
// memory), and the one check that turns what the device lacks into words. Shared by the reduce
// and scan tables.
#pragma once

#include <cstdint>
#include <string>

#include "vk_context.hpp"

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

// Why the device cannot run a variant of `needs`, workgroups of `workgroup` invocations and
// `shared_bytes` of shared memory, in words; empty when it can.
std::string missing_reason(std::uint32_t needs, std::uint32_t workgroup, std::uint32_t shared_bytes,
                           const DeviceFacts& facts);

}  // namespace xr::vulkan
