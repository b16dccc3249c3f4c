#include "cl_reduce_table.hpp"

#include "cl_requirements.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/shapes.hpp"

namespace xr::opencl {
namespace {

// A variant of core's shared shape for `id`.
constexpr ReduceSpec shared(std::string_view id, std::string_view kernel, ReduceShape shape,
                            std::uint32_t unroll = 1, std::uint32_t max_groups = 0) {
  const TileShape s = shared_shape(Primitive::reduce, id);
  return {.id = id,
          .kernel = kernel,
          .shape = shape,
          .workgroup = s.threads,
          .items = s.items,
          .unroll = unroll,
          .max_groups = max_groups};
}

constexpr ReduceSpec subgroup(std::string_view id, std::string_view kernel) {
  return {.id = id,
          .kernel = kernel,
          .shape = ReduceShape::grid_stride,
          .workgroup = 256,
          .items = 2,
          .max_groups = kGridGroups,
          .needs = need_subgroup_shuffle};
}

// The Harris ladder, the shuffles, the fast pair: Vulkan's table (vk_reduce_table.cpp) in OpenCL.
// fast/*: 4 lanes x 4 vector loads in flight per work-item and iteration.
constexpr ReduceSpec kReduces[] = {
    shared("smem/interleaved-divergent", "smem_interleaved_divergent", ReduceShape::per_block),
    shared("smem/interleaved-strided", "smem_interleaved_strided", ReduceShape::per_block),
    shared("smem/sequential", "smem_sequential", ReduceShape::per_block),
    shared("smem/first-add", "smem_first_add", ReduceShape::per_block),
    shared("smem/unroll-last-warp", "smem_unroll_last_warp", ReduceShape::per_block),
    shared("smem/complete-unroll", "smem_complete_unroll", ReduceShape::per_block),
    shared("smem/multi-element", "smem_multi_element", ReduceShape::grid_stride, 1, kGridGroups),
    subgroup("subgroup/shuffle-down", "subgroup_shuffle_down"),
    subgroup("subgroup/shuffle-xor", "subgroup_shuffle_xor"),
    shared("fast/vectorized", "fast_vectorized", ReduceShape::grid_stride, 4, kGridGroups),
    shared("fast/single-pass", "fast_single_pass", ReduceShape::single_pass, 4, kGridGroups),
};

}  // namespace

std::span<const ReduceSpec> reduce_table() {
  return kReduces;
}

const ReduceSpec* find_reduce(std::string_view id) {
  for (const auto& v : kReduces)
    if (v.id == id) return &v;
  return nullptr;
}

VariantInfo reduce_info(const ReduceSpec& spec) {
  VariantInfo info =
      catalog_variant(Primitive::reduce, spec.id, opencl_dtypes(), {Op::sum, Op::min, Op::max});
  info.requirements = requirement_words(spec.needs);
  return info;
}

// Local arrays of WG accumulators plus a few words.
std::uint32_t reduce_local_bytes(const ReduceSpec& spec) {
  return spec.workgroup * 4 + 64;
}

std::string reduce_unsupported_reason(const ReduceSpec& spec, const DeviceFacts& f) {
  return missing_reason(spec.needs, spec.workgroup, reduce_local_bytes(spec), f);
}

}  // namespace xr::opencl
