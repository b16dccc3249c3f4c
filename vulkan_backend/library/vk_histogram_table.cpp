#include "vk_histogram_table.hpp"

namespace xr::vulkan {
namespace {

using histogram::Kernel;

// The textbook rungs' workgroup, CUDA's block (the textbook leaves it to the caller); unmeasured.
constexpr std::uint32_t kRungThreads = 256;
// fast/replicated fits its workgroup to the device (vk_histogram_plan.cpp) down to Vulkan's least
// maxComputeWorkGroupInvocations.
constexpr std::uint32_t kLeastFastThreads = 128;
// subgroup/aggregated's match by ballots (subgroupBroadcastFirst, subgroupBallot, subgroupElect);
// by subgroupPartitionNV where the device has VK_NV_shader_subgroup_partitioned, which needs
// nothing more.
constexpr std::uint32_t kMatchNeeds = need_subgroup_basic | need_subgroup_ballot;

constexpr histogram::Spec kHistograms[] = {
    {.name = "atomic/global", .kernel = Kernel::atomic_global, .threads = kRungThreads},
    {.name = "atomic/privatized", .kernel = Kernel::atomic_privatized, .threads = kRungThreads},
    {.name = "atomic/coarsened", .kernel = Kernel::atomic_coarsened, .threads = kRungThreads},
    {.name = "atomic/aggregated", .kernel = Kernel::atomic_aggregated, .threads = kRungThreads},
    {.name = "subgroup/aggregated",
     .kernel = Kernel::subgroup_aggregated,
     .needs = kMatchNeeds,
     .threads = kRungThreads},
    {.name = "fast/replicated", .kernel = Kernel::fast_replicated, .threads = kLeastFastThreads},
};

}  // namespace

std::span<const histogram::Spec> histogram_table() {
  return kHistograms;
}

}  // namespace xr::vulkan
