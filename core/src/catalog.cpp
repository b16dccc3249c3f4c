#include "xreduce/catalog.hpp"

#include <algorithm>
#include <string>

#include "xreduce/error.hpp"

namespace xr {
namespace {

constexpr Primitive R = Primitive::reduce;
constexpr Primitive S = Primitive::scan;
constexpr Primitive T = Primitive::sort;

// Reduce's ladder: CPU reference, seed 000's global-memory table, the Harris shared-memory ladder
// (the CUDA/Vulkan bridge), warp/subgroup intrinsics, the fast variants, the vendor anchor.
// Scan's ladder: CPU, the naive in-block scan, seed 001's BIT steps in its order and its open
// question, the work-efficient scan it measured against, registers, the fast variants, CUB.
// Sort's ladder: the CPU's comparison and radix sorts, the sorting network, the radix sort of
// CUB before 2022, Onesweep, CUB.
constexpr CatalogEntry kCatalog[] = {
    {R, "cpu/recursive", "seed 000 recursiveReduce (interleaved pairs, non-destructive)"},
    {R, "cpu/sequential", "seed 000 CPU loop `sum += array[i]`"},
    {R, "cpu/parallel", "parallel STL on TBB: fixed 64K-element chunks, partials folded in order"},
    {R, "global/neighbored", "seed 000 reduceNeighbored (divergent, in place)"},
    {R, "global/neighbored-less", "seed 000 reduceNeighboredLess"},
    {R, "global/interleaved", "seed 000 reduceInterleaved"},
    {R, "global/unroll2", "seed 000 reduceUnrolling2"},
    {R, "global/unroll4", "seed 000 reduceUnrolling4"},
    {R, "global/unroll8", "seed 000 reduceUnrolling8"},
    {R, "global/unroll-warps8", "seed 000 reduceUnrollWarps8"},
    {R, "global/complete-unroll-warps8", "seed 000 reduceCompleteUnrollWarps8"},
    {R, "global/complete-unroll-template", "seed 000 reduceCompleteUnroll<iBlockSize>"},
    {R, "smem/interleaved-divergent", "Harris #1, seed 000 Neighbored, seed 003 #1"},
    {R, "smem/interleaved-strided", "Harris #2, seed 000 NeighboredLess, seed 003 #2"},
    {R, "smem/sequential", "Harris #3, seed 000 Interleaved, seed 003 #3"},
    {R, "smem/first-add", "Harris #4, seed 000 Unrolling2"},
    {R, "smem/unroll-last-warp", "Harris #5, seed 000 UnrollWarps"},
    {R, "smem/complete-unroll", "Harris #6, seed 000 CompleteUnroll/template"},
    {R, "smem/multi-element", "Harris #7 (grid-stride loop)"},
    {R, "warp/shuffle-down", "seed 002 warpReduce/blockReduce with __shfl_down_sync"},
    {R, "warp/shuffle-xor", "seed 002 __shfl_xor_sync (every lane holds the result)"},
    {R, "warp/redux", "__reduce_*_sync (sm_80+ integers), cooperative_groups::reduce (floats)"},
    {R, "subgroup/shuffle-down", "seed 002 warpReduce as subgroupShuffleDown"},
    {R, "subgroup/shuffle-xor", "seed 002 __shfl_xor_sync as subgroupShuffleXor"},
    {R, "subgroup/arithmetic", "subgroupAdd/Min/Max"},
    {R, "fast/vectorized", "128-bit loads, grid-stride, warp/subgroup reduce, two passes"},
    {R, "fast/single-pass", "one launch: per-block partials, atomic ticket, last block finishes"},
    {R, "lib/cub", "cub::DeviceReduce (the vendor anchor)"},

    {S, "cpu/sequential", "seed 001 CPU row: the reference loop (floats accumulate in double)"},
    {S, "cpu/parallel",
     "TBB, fixed 64K-element chunks: chunk totals, then each chunk from its prefix"},
    {S, "smem/hillis-steele", "GPU Gems 3 39.2.1 naive in-block scan, O(n log n) work"},
    {S, "bit/one-layer", "seed 001 2.2 first scheme: BIT in-block, one launch per level above"},
    {S, "bit/between-blocks", "seed 001 2.2 second scheme: one block builds the levels above"},
    {S, "bit/smem", "seed 001 4 (2024/8/12): the query accumulates in shared memory"},
    {S, "bit/unrolled", "seed 001 5 (2024/8/13): the in-block build unrolled"},
    {S, "bit/cooperative", "seed 001 3's open question: the whole BIT in one cooperative launch"},
    {S, "blelloch/bcao", "seed 001's bcao: GPU Gems 3 39.2.2-3 work-efficient, conflict-free"},
    {S, "warp/shuffle-up", "Kogge-Stone in registers with __shfl_up_sync (seed 002's shuffles)"},
    {S, "subgroup/shuffle-up", "Kogge-Stone in registers with subgroupShuffleUp"},
    {S, "subgroup/arithmetic", "subgroupInclusiveAdd/Min/Max"},
    {S, "fast/reduce-then-scan",
     "128-bit loads: reduce tiles, scan the partials, rescan the tiles"},
    {S, "fast/decoupled-lookback", "single pass, Merrill & Garland 2016 decoupled look-back"},
    {S, "lib/cub", "cub::DeviceScan (the vendor anchor)"},

    {T, "cpu/std-sort", "std::stable_sort under the keys' total order"},
    {T, "cpu/radix", "LSD radix sort, 8-bit digits: histogram, scan, stable scatter per digit"},
    {T, "cpu/parallel", "parallel STL on TBB: std::stable_sort with std::execution::par"},
    {T, "bitonic/smem",
     "Batcher's bitonic network: shared-memory merges in a block, global merges between blocks"},
    {T, "radix/reduce-then-scan",
     "per 8-bit digit an upsweep, a scan of the digit counts, a downsweep (Merrill & Grimshaw)"},
    {T, "radix/onesweep",
     "one histogram pass, then per digit rank, decoupled look-back, scatter (Adinets & Merrill "
     "2022)"},
    {T, "lib/cub", "cub::DeviceRadixSort at its faster num_items width (the vendor anchor)"},
};

const CatalogEntry* find(Primitive p, std::string_view id) {
  for (const auto& e : kCatalog)
    if (e.primitive == p && e.id == id) return &e;
  return nullptr;
}

}  // namespace

std::span<const CatalogEntry> catalog() {
  return kCatalog;
}

int ladder_position(Primitive primitive, std::string_view id) {
  const CatalogEntry* e = find(primitive, id);
  return static_cast<int>(e ? e - std::begin(kCatalog) : std::size(kCatalog));
}

bool in_catalog(Primitive primitive, std::string_view id) {
  return find(primitive, id) != nullptr;
}

VariantInfo catalog_variant(Primitive primitive, std::string_view id, std::vector<DType> dtypes,
                            std::vector<Op> ops) {
  const CatalogEntry* e = find(primitive, id);
  if (!e)
    throw Error(ErrorCategory::usage, "variant id '" + std::string(id) + "' is not in the " +
                                          std::string(to_string(primitive)) + " catalog");
  VariantInfo info;
  info.primitive = primitive;
  info.id = std::string(e->id);
  info.mirrors = std::string(e->mirrors);
  info.dtypes = std::move(dtypes);
  info.ops = std::move(ops);
  if (primitive == Primitive::scan)
    info.scan_kinds.assign(std::begin(kAllScanKinds), std::end(kAllScanKinds));
  if (primitive == Primitive::sort) info.ops.clear();  // a sort has no operator
  return info;
}

bool VariantInfo::claims(DType t) const {
  return std::find(dtypes.begin(), dtypes.end(), t) != dtypes.end();
}
bool VariantInfo::claims(Op op) const {
  return std::find(ops.begin(), ops.end(), op) != ops.end();
}
bool VariantInfo::claims(ScanKind k) const {
  return std::find(scan_kinds.begin(), scan_kinds.end(), k) != scan_kinds.end();
}
bool VariantInfo::deterministic_for(DType t) const {
  return deterministic || is_integer(t);
}

VariantInfo table_variant(Primitive primitive, std::string_view id, std::vector<DType> dtypes,
                          std::vector<std::string> requirements, bool deterministic) {
  VariantInfo info = catalog_variant(primitive, id, std::move(dtypes), {Op::sum, Op::min, Op::max});
  info.deterministic = deterministic;
  info.requirements = std::move(requirements);
  return info;
}

}  // namespace xr
