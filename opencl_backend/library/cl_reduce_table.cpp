#include "cl_reduce_table.hpp"

#include "cl_requirements.hpp"
#include "xreduce/catalog.hpp"

namespace xr::opencl {
namespace {

constexpr ReduceSpec reduce_spec(std::string_view id, std::string_view kernel,
                                 std::uint32_t needs = 0) {
  return {.schedule = reduce_schedule(id), .kernel = kernel, .needs = needs};
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

const ReduceSpec* find_reduce(std::string_view id) {
  return find_row<ReduceSpec>(kReduces, id);
}

VariantInfo reduce_info(const ReduceSpec& spec) {
  return table_variant(Primitive::reduce, spec.id(), opencl_dtypes(),
                       requirement_words(spec.needs));
}

// Local arrays of WG accumulators plus a few words.
std::uint32_t reduce_local_bytes(const ReduceSpec& spec) {
  return spec.schedule.threads * 4 + 64;
}

std::string reduce_unsupported_reason(const ReduceSpec& spec, const DeviceFacts& f) {
  return missing_reason(spec.needs, spec.schedule.threads, reduce_local_bytes(spec), f);
}

}  // namespace xr::opencl
