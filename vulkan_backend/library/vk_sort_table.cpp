#include "vk_sort_table.hpp"

namespace xr::vulkan {
namespace {

// The ranking by ballots (shaders/sort_rank_ballot.glsl); without them the radix sorts rank by
// counting (shaders/sort_rank_count.glsl), which needs no subgroup operation.
constexpr std::uint32_t kBallotRankNeeds =
    need_subgroup_basic | need_subgroup_ballot | need_subgroup_shuffle | need_subgroup_arithmetic;
// A tile of 256 x 4 keys and its counters ranked by ballots (vk_sort_plan.cpp shrinks tiles to
// the device; ranking by counting takes 20 bytes an invocation and 4 a key beside the keys, and
// 16 KiB still holds 256 x 3 of them).
constexpr std::uint32_t kLeastSortBytes = 256 * 4 * 4 + 2 * 1024;
// bitonic/smem compares items in shared memory and nothing across invocations: no subgroup
// operations. Its tile shrinks to any device; 16 KiB (Vulkan's least maxComputeSharedMemorySize)
// holds 512 x 4 packed or 512 x 2 wide items.
constexpr std::uint32_t kLeastBitonicBytes = 16 * 1024;

constexpr sort::Spec kSorts[] = {
    {{"radix/reduce-then-scan", sort::Family::reduce_then_scan, 0, 256, kLeastSortBytes},
     kBallotRankNeeds},
    {{"radix/onesweep", sort::Family::onesweep, 0, 256, kLeastSortBytes}, kBallotRankNeeds},
    {{"bitonic/smem", sort::Family::bitonic, 0, 256, kLeastBitonicBytes}, 0},
};

}  // namespace

std::span<const sort::Spec> sort_table() {
  return kSorts;
}

}  // namespace xr::vulkan
