#include "vk_reduce_table.hpp"

#include "vk_requirements.hpp"
#include "xreduce/catalog.hpp"

namespace xr::vulkan {
namespace {

constexpr std::uint32_t kBasic = need_subgroup_basic;

constexpr ReduceSpec reduce_spec(std::string_view id, std::string_view shader,
                                 std::uint32_t needs) {
  return {.schedule = reduce_schedule(id), .program = shader, .needs = needs};
}

// The Harris ladder, the subgroup family, the fast pair, in core's schedules.
constexpr ReduceSpec kReduces[] = {
    reduce_spec("smem/interleaved-divergent", "smem_interleaved_divergent", 0),
    reduce_spec("smem/interleaved-strided", "smem_interleaved_strided", 0),
    reduce_spec("smem/sequential", "smem_sequential", 0),
    reduce_spec("smem/first-add", "smem_first_add", 0),
    reduce_spec("smem/unroll-last-warp", "smem_unroll_subgroup", kBasic),
    reduce_spec("smem/complete-unroll", "smem_complete_unroll", kBasic),
    reduce_spec("smem/multi-element", "smem_multi_element", kBasic),
    reduce_spec("subgroup/shuffle-down", "subgroup_shuffle_down",
                kBasic | need_subgroup_shuffle_relative),
    reduce_spec("subgroup/shuffle-xor", "subgroup_shuffle_xor", kBasic | need_subgroup_shuffle),
    reduce_spec("subgroup/arithmetic", "subgroup_arithmetic", kBasic | need_subgroup_arithmetic),
    reduce_spec("fast/vectorized", "fast_vectorized", kBasic | need_subgroup_arithmetic),
    reduce_spec("fast/single-pass", "fast_single_pass", kBasic | need_subgroup_arithmetic),
};

}  // namespace

std::span<const ReduceSpec> reduce_table() {
  return kReduces;
}

}  // namespace xr::vulkan
