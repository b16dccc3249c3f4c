#include "cl_histogram_table.hpp"

namespace xr::opencl {
namespace {

using histogram::Kernel;

// The ladder's work-group, as CUDA's (unmeasured: the textbook leaves it to the caller); the plan
// launches each rung in its row's. fast/replicated's is its tuning row's within the device's
// CL_DEVICE_MAX_WORK_GROUP_SIZE (cl_histogram_plan.cpp), 64 at least.
constexpr std::uint32_t kLadderThreads = 256;
// subgroup/aggregated without sub-groups: a slot a work-item for the bins that meet in local
// memory.
constexpr std::uint32_t kMatchSlotBytes = kLadderThreads * 4;

constexpr histogram::Spec kHistograms[] = {
    {.name = "atomic/global", .kernel = Kernel::atomic_global, .threads = kLadderThreads},
    {.name = "atomic/privatized", .kernel = Kernel::atomic_privatized, .threads = kLadderThreads},
    {.name = "atomic/coarsened", .kernel = Kernel::atomic_coarsened, .threads = kLadderThreads},
    {.name = "atomic/aggregated", .kernel = Kernel::atomic_aggregated, .threads = kLadderThreads},
    {.name = "subgroup/aggregated",
     .kernel = Kernel::subgroup_aggregated,
     .threads = kLadderThreads,
     .group_bytes = kMatchSlotBytes},
    {.name = "fast/replicated", .kernel = Kernel::fast_replicated, .threads = 64},
};

}  // namespace

std::span<const histogram::Spec> histogram_table() {
  return kHistograms;
}

}  // namespace xr::opencl
