#include "vk_sort_table.hpp"

namespace xr::vulkan {
namespace {

constexpr std::uint32_t kSortNeeds =
    need_subgroup_basic | need_subgroup_ballot | need_subgroup_shuffle | need_subgroup_arithmetic;
// A tile of 256 x 4 keys and its counters (vk_sort_plan.cpp shrinks tiles to the device).
constexpr std::uint32_t kLeastSortBytes = 256 * 4 * 4 + 2 * 1024;
// bitonic/smem compares items in shared memory and nothing across invocations: no subgroup
// operations. Its tile shrinks to any device; 16 KiB (Vulkan's least maxComputeSharedMemorySize)
// holds 512 x 4 packed or 512 x 2 wide items.
constexpr std::uint32_t kLeastBitonicBytes = 16 * 1024;

constexpr SortSpec kSorts[] = {
    {"radix/reduce-then-scan", SortFamily::reduce_then_scan, kSortNeeds, 256, kLeastSortBytes},
    {"radix/onesweep", SortFamily::onesweep, kSortNeeds, 256, kLeastSortBytes},
    {"bitonic/smem", SortFamily::bitonic, 0, 256, kLeastBitonicBytes},
};

}  // namespace

std::span<const SortSpec> sort_table() {
  return kSorts;
}

}  // namespace xr::vulkan
