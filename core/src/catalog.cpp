#include "xreduce/catalog.hpp"

#include <algorithm>
#include <string>

#include "xreduce/error.hpp"

namespace xr {
namespace {

// Ladder order: CPU reference, seed 000's global-memory table, the Harris shared-memory ladder
// (the CUDA/Vulkan bridge), warp/subgroup intrinsics, the fast variants, the vendor anchor.
constexpr CatalogEntry kCatalog[] = {
    {"cpu/recursive", "seed 000 recursiveReduce (interleaved pairs, non-destructive)"},
    {"cpu/sequential", "seed 000 CPU loop `sum += array[i]`"},
    {"cpu/parallel", "parallel STL on TBB: fixed 64K-element chunks, partials folded in order"},
    {"global/neighbored", "seed 000 reduceNeighbored (divergent, in place)"},
    {"global/neighbored-less", "seed 000 reduceNeighboredLess"},
    {"global/interleaved", "seed 000 reduceInterleaved"},
    {"global/unroll2", "seed 000 reduceUnrolling2"},
    {"global/unroll4", "seed 000 reduceUnrolling4"},
    {"global/unroll8", "seed 000 reduceUnrolling8"},
    {"global/unroll-warps8", "seed 000 reduceUnrollWarps8"},
    {"global/complete-unroll-warps8", "seed 000 reduceCompleteUnrollWarps8"},
    {"global/complete-unroll-template", "seed 000 reduceCompleteUnroll<iBlockSize>"},
    {"smem/interleaved-divergent", "Harris #1, seed 000 Neighbored, seed 003 #1"},
    {"smem/interleaved-strided", "Harris #2, seed 000 NeighboredLess, seed 003 #2"},
    {"smem/sequential", "Harris #3, seed 000 Interleaved, seed 003 #3"},
    {"smem/first-add", "Harris #4, seed 000 Unrolling2"},
    {"smem/unroll-last-warp", "Harris #5, seed 000 UnrollWarps"},
    {"smem/complete-unroll", "Harris #6, seed 000 CompleteUnroll/template"},
    {"smem/multi-element", "Harris #7 (grid-stride loop)"},
    {"warp/shuffle-down", "seed 002 warpReduce/blockReduce with __shfl_down_sync"},
    {"warp/shuffle-xor", "seed 002 __shfl_xor_sync (every lane holds the result)"},
    {"warp/redux", "__reduce_*_sync (sm_80+ integers), cooperative_groups::reduce (floats)"},
    {"subgroup/shuffle-down", "seed 002 warpReduce as subgroupShuffleDown"},
    {"subgroup/shuffle-xor", "seed 002 __shfl_xor_sync as subgroupShuffleXor"},
    {"subgroup/arithmetic", "subgroupAdd/Min/Max"},
    {"fast/vectorized", "128-bit loads, grid-stride, warp/subgroup reduce, two passes"},
    {"fast/single-pass", "one launch: per-block partials, atomic ticket, last block finishes"},
    {"lib/cub", "cub::DeviceReduce (the vendor anchor)"},
};

}  // namespace

std::span<const CatalogEntry> catalog() {
  return kCatalog;
}

int ladder_position(std::string_view id) {
  auto it = std::find_if(std::begin(kCatalog), std::end(kCatalog),
                         [&](const CatalogEntry& e) { return e.id == id; });
  return static_cast<int>(it - std::begin(kCatalog));
}

VariantInfo catalog_variant(std::string_view id, std::vector<DType> dtypes, std::vector<Op> ops) {
  int pos = ladder_position(id);
  if (pos >= static_cast<int>(std::size(kCatalog)))
    throw Error(ErrorCategory::usage, "variant id '" + std::string(id) + "' is not in the catalog");
  VariantInfo info;
  info.id = std::string(kCatalog[pos].id);
  info.mirrors = std::string(kCatalog[pos].mirrors);
  info.dtypes = std::move(dtypes);
  info.ops = std::move(ops);
  return info;
}

bool VariantInfo::claims(DType t) const {
  return std::find(dtypes.begin(), dtypes.end(), t) != dtypes.end();
}
bool VariantInfo::claims(Op op) const {
  return std::find(ops.begin(), ops.end(), op) != ops.end();
}

}  // namespace xr
