#include "xreduce/catalog.hpp"

#include <algorithm>
#include <string>

#include "xreduce/error.hpp"

namespace xr {
namespace {

constexpr Primitive R = Primitive::reduce;
constexpr Primitive S = Primitive::scan;
constexpr Primitive T = Primitive::sort;
constexpr Primitive H = Primitive::histogram;

// Reduce's ladder: CPU reference, the classic in-place global-memory kernels, the Harris
// shared-memory ladder (the CUDA/Vulkan bridge), warp/subgroup intrinsics, the fast variants, the
// vendor anchor. Scan's ladder: CPU, the naive in-block scan, the Fenwick-tree (BIT) scan's steps
// in order and its open question, the work-efficient scan it measured against, registers, the fast
// variants, CUB. Sort's ladder: the CPU's comparison and radix sorts, the sorting network, the
// radix sort of CUB before 2022, Onesweep, CUB. Histogram's ladder: the CPU's loop and its
// parallel copy, then Programming Massively Parallel Processors' chapter 9 in its order (atomics,
// privatization, coarsening, aggregation), the subgroup's match, the fast variants, CUB.
constexpr CatalogEntry kCatalog[] = {
    {R, "cpu/recursive", "classic recursiveReduce (interleaved pairs, non-destructive)"},
    {R, "cpu/sequential", "classic CPU loop `sum += array[i]`"},
    {R, "cpu/parallel", "parallel STL on TBB: fixed 64K-element chunks, partials folded in order"},
    {R, "global/neighbored", "classic reduceNeighbored (divergent, in place)"},
    {R, "global/neighbored-less", "classic reduceNeighboredLess"},
    {R, "global/interleaved", "classic reduceInterleaved"},
    {R, "global/unroll2", "classic reduceUnrolling2"},
    {R, "global/unroll4", "classic reduceUnrolling4"},
    {R, "global/unroll8", "classic reduceUnrolling8"},
    {R, "global/unroll-warps8", "classic reduceUnrollWarps8"},
    {R, "global/complete-unroll-warps8", "classic reduceCompleteUnrollWarps8"},
    {R, "global/complete-unroll-template", "classic reduceCompleteUnroll<iBlockSize>"},
    {R, "smem/interleaved-divergent", "Harris #1, classic Neighbored, HLSL step #1"},
    {R, "smem/interleaved-strided", "Harris #2, classic NeighboredLess, HLSL step #2"},
    {R, "smem/sequential", "Harris #3, classic Interleaved, HLSL step #3"},
    {R, "smem/first-add", "Harris #4, classic Unrolling2"},
    {R, "smem/unroll-last-warp", "Harris #5, classic UnrollWarps"},
    {R, "smem/complete-unroll", "Harris #6, classic CompleteUnroll/template"},
    {R, "smem/multi-element", "Harris #7 (grid-stride loop)"},
    {R, "warp/shuffle-down", "warp-shuffle warpReduce/blockReduce with __shfl_down_sync"},
    {R, "warp/shuffle-xor", "warp-shuffle __shfl_xor_sync (every lane holds the result)"},
    {R, "warp/redux", "__reduce_*_sync (sm_80+ integers), cooperative_groups::reduce (floats)"},
    {R, "subgroup/shuffle-down", "warp-shuffle warpReduce as subgroupShuffleDown"},
    {R, "subgroup/shuffle-xor", "warp-shuffle __shfl_xor_sync as subgroupShuffleXor"},
    {R, "subgroup/arithmetic", "subgroupAdd/Min/Max"},
    {R, "fast/vectorized", "128-bit loads, grid-stride, warp/subgroup reduce, two passes"},
    {R, "fast/single-pass", "one launch: per-block partials, atomic ticket, last block finishes"},
    {R, "lib/cub", "cub::DeviceReduce (the vendor anchor)"},

    {S, "cpu/sequential", "BIT scan's CPU row: the reference loop (floats accumulate in double)"},
    {S, "cpu/parallel",
     "TBB, fixed 64K-element chunks: chunk totals, then each chunk from its prefix"},
    {S, "smem/hillis-steele", "GPU Gems 3 39.2.1 naive in-block scan, O(n log n) work"},
    {S, "bit/one-layer", "BIT first scheme: BIT in-block, one launch per level above"},
    {S, "bit/between-blocks", "BIT second scheme: one block builds the levels above"},
    {S, "bit/smem", "BIT query step: the query accumulates in shared memory"},
    {S, "bit/unrolled", "BIT build step: the in-block build unrolled"},
    {S, "bit/cooperative", "BIT open question: the whole BIT in one cooperative launch"},
    {S, "blelloch/bcao", "bcao: GPU Gems 3 39.2.2-3 work-efficient, conflict-free"},
    {S, "warp/shuffle-up",
     "Kogge-Stone in registers with __shfl_up_sync (the warp-shuffle reduce's shuffles)"},
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

    {H, "cpu/sequential", "the reference loop: one counter a bin, one sample at a time"},
    {H, "cpu/parallel", "TBB: a private histogram a chunk, merged bin by bin"},
    {H, "atomic/global", "PMPP 9.2: one global atomic add a sample"},
    {H, "atomic/privatized", "PMPP 9.4: a workgroup's copy in shared memory, merged at its end"},
    {H, "atomic/coarsened", "PMPP 9.5: many samples a thread, interleaved so loads coalesce"},
    {H, "atomic/aggregated", "PMPP 9.6: a thread's run of equal bins added once"},
    {H, "subgroup/aggregated",
     "the lanes holding one bin elect a leader that adds their count (__match_any_sync, "
     "subgroupPartitionNV or ballots)"},
    {H, "fast/replicated",
     "several sub-histograms a workgroup, 128-bit loads; past shared memory the bins in slices "
     "or copies in global memory"},
    {H, "lib/cub", "cub::DeviceHistogram::HistogramEven (the vendor anchor)"},
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
  // A sort and a histogram have no operator.
  if (primitive == Primitive::sort || primitive == Primitive::histogram) info.ops.clear();
  if (primitive == Primitive::histogram) info.max_bins = kMaxHistogramBins;
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
