#include "cl_reduce_table.hpp"

#include "cl_requirements.hpp"
#include "xreduce/catalog.hpp"

namespace xr::opencl {
namespace {

constexpr ReduceSpec reduce_spec(std::string_view id, std::string_view kernel,
                                 std::uint32_t needs = 0) {
  return {.schedule = reduce_schedule(id), .program = kernel, .needs = needs};
}

// The Harris ladder, the shuffles, the fast pair, in core's schedules.
constexpr ReduceSpec kReduces[] = {
    reduce_spec("smem/interleaved-divergent", "smem_interleaved_divergent"),
    reduce_spec("smem/interleaved-strided", "smem_interleaved_strided"),
    reduce_spec("smem/sequential", "smem_sequential"),
    reduce_spec("smem/first-add", "smem_first_add"),
    reduce_spec("smem/unroll-last-warp", "smem_unroll_last_warp"),
    reduce_spec("smem/complete-unroll", "smem_complete_unroll"),
    reduce_spec("smem/multi-element", "smem_multi_element"),
    reduce_spec("subgroup/shuffle-down", "subgroup_shuffle_down", need_subgroup_shuffle),
    reduce_spec("subgroup/shuffle-xor", "subgroup_shuffle_xor", need_subgroup_shuffle),
    reduce_spec("fast/vectorized", "fast_vectorized"),
    reduce_spec("fast/single-pass", "fast_single_pass"),
};

}  // namespace

std::span<const ReduceSpec> reduce_table() {
  return kReduces;
}

}  // namespace xr::opencl
