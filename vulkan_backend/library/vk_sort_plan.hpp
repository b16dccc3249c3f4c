// A sort's plan in Vulkan: core's passes (xreduce/sort_passes.hpp) translated into dispatches,
// each a module of its key width (and values), its specialization constants, the operands at its
// five bindings, its push constants and grid; and the tiles this device's shared memory takes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vk_device_facts.hpp"
#include "vk_grid.hpp"
#include "vk_sort_table.hpp"
#include "xreduce/sort_passes.hpp"

namespace xr::vulkan {

// The push constants of a sort pass (shaders/sort_common.glsl), byte for byte.
using SortPush = sort::Args;
static_assert(sizeof(SortPush) == 96, "SortPush must match shaders/sort_common.glsl");
namespace sort {
using namespace xr::sort;  // core's schedule vocabulary, beside this API's plan
// The same after the keys' and values' device addresses (the XR_ADDRESS modules): each pass's
// bindings 0 to 3, in that order.
struct AddressPush {
  std::array<std::uint64_t, 4> operands{};
  Args args;
};
}  // namespace sort
static_assert(offsetof(sort::AddressPush, args) == 32,
              "sort::AddressPush must match sort_common.glsl");

namespace sort {
// How the radix sorts rank a tile's keys (shaders/sort_tile.glsl): by subgroup ballots where the
// device has what sort::Spec::ballot_needs names, by counting in shared memory otherwise.
enum class Ranking { ballots, counting };
}  // namespace sort
std::string_view to_string(sort::Ranking r);

namespace sort {
// What a sort's plan takes from the knobs (VulkanKnobs).
struct Knobs {
  std::uint32_t polls = 0;           // the look-back's patience (0: the forced fallback)
  std::optional<Tile> tile;          // XR_VK_SORT_TILE: the digit passes' tile
  bool force_address = false;        // XR_VK_ADDRESSING=address
  bool force_counting = false;       // XR_VK_SORT_RANKING=counting
  std::optional<bool> device_grids;  // XR_VK_SORT_GRIDS: the tuning table's where unset
};

// A pass's pipeline (its module and specialization constants) and the plan's grid for it.
struct Dispatch {
  Stage stage = Stage::init;
  std::string module;
  std::uint32_t workgroup = 256;   // specialization constant 0
  std::uint32_t items = 1;         // 1
  std::uint32_t window = 0;        // 4: onesweep's look-back window
  std::uint32_t sort_mode = 0;     // 5: the key's kind and order
  std::uint32_t min_subgroup = 4;  // 6
  Grid grid;                       // of the plan's call (a call records its own pass's)
  bool by_address = false;         // its module reaches the keys and values by AddressPush
};

struct Plan {
  std::vector<Dispatch> passes;
  // The keys and values by device address in core's wide form (an array past one binding, past
  // kSortNarrowMaxKeys keys, or XR_VK_ADDRESSING), the passes' modules their XR_ADDRESS forms;
  // the words stay bound.
  bool by_address = false;
  Ranking ranking = Ranking::ballots;  // the radix passes' (bitonic ranks none)
  Schedule layout;          // core's plan: the scratch's layout (its passes are translated above)
  ScheduleOptions options;  // what core planned it with: a call of fewer keys is planned alike
};
}  // namespace sort

// How `spec` ranks on this device: by ballots where it has spec.ballot_needs and the knobs do
// not force counting.
sort::Ranking sort_ranking(const sort::Spec& spec, const DeviceFacts& facts,
                           const sort::Knobs& knobs);

// What a sort of `family` over `t` asks of the device, as data: core's options
// (xreduce/sort_tiles.hpp) for this device's limits, with the radix sorts' digit-pass tile for
// `ranking` (the policy's, or knobs.tile, fitted to maxComputeSharedMemorySize with the ranking's
// counters) or core's bitonic tile (knobs.tile is the digit passes' alone). `wide`: core's wide
// form (the modules by address). A count on the device takes the digit passes' grid from the
// grid pass (device_grids). Error(unsupported) where no tile fits: for knobs.tile, a line that
// names XR_VK_SORT_TILE, the tile and the most invocations that would hold an item.
sort::ScheduleOptions sort_plan_options(const DeviceFacts& facts, sort::Family family, DType t,
                                        bool wide, sort::Ranking ranking, const sort::Knobs& knobs);

// n >= 1, `bits` effective. The radix sorts go by address, in core's wide form, where an array
// passes one binding, past kSortNarrowMaxKeys keys, or with knobs.force_address; their tile
// passes rank as sort_ranking says (the modules ".count" by counting).
// Error(unsupported) past sort_plan_max_keys, or where bitonic's items pass one binding.
sort::Plan sort_dispatches(const sort::Spec& spec, const DeviceFacts& facts, std::uint64_t n,
                           DType t, SortOrder order, BitRange bits, SortValues values,
                           const sort::Knobs& knobs);
// The same plan's call with its count on the device (core's counted form, the capacity's grids):
// its passes, the grid pass among them, translated alike. Error(unsupported) past
// sort_counted_max_keys.
sort::Plan sort_counted_dispatches(const sort::Spec& spec, const DeviceFacts& facts,
                                   const sort::Plan& direct, DType t, SortOrder order,
                                   BitRange bits, SortValues values);

}  // namespace xr::vulkan
