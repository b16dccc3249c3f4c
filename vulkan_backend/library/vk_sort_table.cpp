#include "vk_sort_table.hpp"

namespace xr::vulkan {
namespace {

constexpr std::uint32_t kSortNeeds =
    need_subgroup_basic | need_subgroup_ballot | need_subgroup_shuffle | need_subgroup_arithmetic;
// A tile of 256 x 4 keys and its counters (vk_sort_plan.cpp shrinks tiles to the device).
constexpr std::uint32_t kLeastSortBytes = 256 * 4 * 4 + 2 * 1024;

constexpr SortSpec kSorts[] = {
    {"radix/reduce-then-scan", SortFamily::reduce_then_scan, kSortNeeds, 256, kLeastSortBytes},
    {"radix/onesweep", SortFamily::onesweep, kSortNeeds, 256, kLeastSortBytes},
};

}  // namespace

std::span<const SortSpec> sort_table() {
  return kSorts;
}

}  // namespace xr::vulkan
