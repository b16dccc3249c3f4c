// A sort's plan in Vulkan: core's passes (xreduce/sort_passes.hpp) translated into dispatches,
// each a module of its key width (and values), its specialization constants, the operands at its
// five bindings, its push constants and grid; and the tiles this device's shared memory takes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "vk_device_facts.hpp"
#include "vk_grid.hpp"
#include "vk_sort_table.hpp"
#include "xreduce/sort_passes.hpp"

namespace xr::vulkan {

// The push constants of a sort pass (shaders/sort_common.glsl), byte for byte.
using SortPush = SortArgs;
static_assert(sizeof(SortPush) == 88, "SortPush must match shaders/sort_common.glsl");
// The same after the keys' and values' device addresses (the XR_ADDRESS modules): each pass's
// bindings 0 to 3, in that order.
struct SortAddressPush {
  std::array<std::uint64_t, 4> operands{};
  SortArgs args;
};
static_assert(offsetof(SortAddressPush, args) == 32, "SortAddressPush must match sort_common.glsl");

struct SortDispatch {
  std::string module;
  std::uint32_t workgroup = 256;   // specialization constant 0
  std::uint32_t items = 1;         // 1
  std::uint32_t window = 0;        // 4: onesweep's look-back window
  std::uint32_t sort_mode = 0;     // 5: the key's kind and order
  std::uint32_t min_subgroup = 4;  // 6
  SortBindings bindings{};
  SortPush push;
  Grid grid;
  bool by_address = false;  // its module reaches the keys and values by SortAddressPush
};

struct SortDispatches {
  std::vector<SortDispatch> passes;
  // The keys and values by device address in core's wide form (an array past one binding, past
  // kSortNarrowMaxKeys keys, or XR_VK_ADDRESSING), the passes' modules their XR_ADDRESS forms;
  // the words stay bound.
  bool by_address = false;
  SortCallPlan layout;  // core's plan: the scratch's layout (its passes are translated above)
};

// What a sort of `family` over `t` asks of the device, as data: the radix sorts' digit-pass tile
// for this device (the policy's, or `tile`, shrunk to fit maxComputeSharedMemorySize and the
// device's smallest subgroup; values are staged through the keys' shared memory after them, so
// pairs take the same) or the bitonic tile (the policy's, shrunk to the same limits; `tile` is
// the digit passes' alone), and the rest of core's options. `wide`: core's wide form (the
// modules by address). `polls`: the look-back's patience (0: the forced fallback).
SortPlanOptions sort_plan_options(const DeviceFacts& facts, SortFamily family, DType t, bool wide,
                                  std::uint32_t polls, std::optional<SortTile> tile);

// n >= 1, `bits` effective. The radix sorts go by address, in core's wide form, where an array
// passes one binding, past kSortNarrowMaxKeys keys, or with `force_address`.
// Error(unsupported) past sort_plan_max_keys, or where bitonic's items pass one binding.
SortDispatches sort_dispatches(const SortSpec& spec, const DeviceFacts& facts, std::uint64_t n,
                               DType t, SortOrder order, BitRange bits, bool pairs,
                               std::uint32_t polls, std::optional<SortTile> tile = {},
                               bool force_address = false);

}  // namespace xr::vulkan
