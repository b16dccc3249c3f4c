#include "vk_reduce_table.hpp"

#include "vk_requirements.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/shapes.hpp"

namespace xr::vulkan {
namespace {

constexpr std::uint32_t kBasic = need_subgroup_basic;

// A variant of core's shared shape for `id`.
constexpr ReduceSpec shared(std::string_view id, std::string_view shader, ReduceShape shape,
                            std::uint32_t needs, std::uint32_t unroll = 1,
                            std::uint32_t max_groups = 0) {
  const TileShape s = shared_shape(Primitive::reduce, id);
  return {.id = id,
          .shader = shader,
          .shape = shape,
          .workgroup = s.threads,
          .items = s.items,
          .unroll = unroll,
          .max_groups = max_groups,
          .needs = needs};
}

// The Harris ladder, the subgroup family, the fast pair. Workgroups of 256 invocations
// throughout, the size seed 003 and the CUDA ladder use, so steps compare like with like.
// fast/*: 4 lanes x 4 vector loads in flight per invocation and iteration.
constexpr ReduceSpec kReduces[] = {
    shared("smem/interleaved-divergent", "smem_interleaved_divergent", ReduceShape::per_block, 0),
    shared("smem/interleaved-strided", "smem_interleaved_strided", ReduceShape::per_block, 0),
    shared("smem/sequential", "smem_sequential", ReduceShape::per_block, 0),
    shared("smem/first-add", "smem_first_add", ReduceShape::per_block, 0),
    shared("smem/unroll-last-warp", "smem_unroll_subgroup", ReduceShape::per_block, kBasic),
    shared("smem/complete-unroll", "smem_complete_unroll", ReduceShape::per_block, kBasic),
    shared("smem/multi-element", "smem_multi_element", ReduceShape::grid_stride, kBasic, 1,
           kGridGroups),
    {.id = "subgroup/shuffle-down",
     .shader = "subgroup_shuffle_down",
     .shape = ReduceShape::grid_stride,
     .workgroup = 256,
     .items = 2,
     .max_groups = kGridGroups,
     .needs = kBasic | need_subgroup_shuffle_relative},
    {.id = "subgroup/shuffle-xor",
     .shader = "subgroup_shuffle_xor",
     .shape = ReduceShape::grid_stride,
     .workgroup = 256,
     .items = 2,
     .max_groups = kGridGroups,
     .needs = kBasic | need_subgroup_shuffle},
    {.id = "subgroup/arithmetic",
     .shader = "subgroup_arithmetic",
     .shape = ReduceShape::grid_stride,
     .workgroup = 256,
     .items = 2,
     .max_groups = kGridGroups,
     .needs = kBasic | need_subgroup_arithmetic},
    shared("fast/vectorized", "fast_vectorized", ReduceShape::grid_stride,
           kBasic | need_subgroup_arithmetic, 4, kGridGroups),
    shared("fast/single-pass", "fast_single_pass", ReduceShape::single_pass,
           kBasic | need_subgroup_arithmetic, 4, kGridGroups),
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
      catalog_variant(Primitive::reduce, spec.id, vulkan_dtypes(), {Op::sum, Op::min, Op::max});
  info.requirements = requirement_words(spec.needs);
  return info;
}

// sdata/sgroup arrays of WG 4-byte accumulators plus a few words.
std::uint32_t reduce_shared_bytes(const ReduceSpec& spec) {
  return spec.workgroup * 4 + 64;
}

std::string reduce_unsupported_reason(const ReduceSpec& spec, const DeviceFacts& f) {
  return missing_reason(spec.needs, spec.workgroup, reduce_shared_bytes(spec), f);
}

}  // namespace xr::vulkan
