// The tiled scans: one block scans one tile into `out` (inclusive or exclusive, tile-locally)
// and writes the tile's total; dispatch scans the totals exclusively with the same kernel, level
// by level, then adds each tile's exclusive prefix back down (uniform_add). Three tile kernels,
// the classic ladder: Hillis-Steele (GPU Gems 3 §39.2.1), Blelloch with bank-conflict avoidance
// (§39.2.2-39.2.3, the "bcao" implementation the BIT scan is measured against), and a Kogge-Stone
// scan in registers with __shfl_up_sync.
//
// Shared contract: blockDim.x is a power of two in 64..1024; a slot past n holds the op's
// identity, so every thread reaches every barrier and the trees need no tail checks; `totals`
// may be null (the top level has one tile and nobody reads its total). Every combination is
// `left op right` in a fixed tree: the result is bitwise the same run to run. In is the level's
// element type (the input's storage type at level 0, the accumulator above), Out likewise; the
// trees, shared memory and tile totals hold the accumulator A = acc_t<In>.
#pragma once

#include "kernels/warp_reduce.cuh"

namespace xr::cuda::kernels {

// GPU Gems 3 §39.2.1, the naive (Hillis-Steele) scan: one element per thread, log2(block) steps,
// each adding the value `off` slots to the left, ping-ponging between two shared buffers so a
// step never reads what it writes. The scan is inclusive in shared memory; exclusive output reads
// the left neighbour's inclusive value. Shared: 2 * blockDim.x elements.
template <class In, class Out, class O>
__global__ void scan_hillis_steele(const In* __restrict__ in, Out* __restrict__ out,
                                   acc_t<In>* __restrict__ totals, std::size_t n, bool exclusive) {
  using A = acc_t<In>;
  A* s = shared_array<A>();
  const unsigned tid = threadIdx.x, size = blockDim.x;
  const std::size_t i = std::size_t(blockIdx.x) * size + tid;
  unsigned cur = 0;  // the buffer holding the latest step
  s[tid] = load_or_identity<In, O>(in, i, n);
  __syncthreads();
  for (unsigned off = 1; off < size; off *= 2) {
    const A* src = s + cur * size;
    A v = src[tid];
    if (tid >= off) v = O::apply(src[tid - off], v);
    cur ^= 1;
    s[cur * size + tid] = v;
    __syncthreads();
  }
  const A* scanned = s + cur * size;
  if (i < n)
    out[i] = from_acc<Out>(!exclusive ? scanned[tid]
                           : tid      ? scanned[tid - 1]
                                      : O::template identity<A>());
  if (totals && tid == size - 1) totals[blockIdx.x] = scanned[tid];
}

// The padding of GPU Gems 3 §39.2.3 for 32 banks: one empty slot after every 32, so the tree's
// power-of-two strides fall on different banks.
__device__ __forceinline__ unsigned conflict_free(unsigned index) {
  return index + (index >> 5);
}

// GPU Gems 3 §39.2.2-39.2.3, Blelloch's work-efficient scan with bank-conflict avoidance: two
// elements per thread (tile = 2 * blockDim.x), an up-sweep that leaves the tile's total at the
// root, the root replaced by the identity, a down-sweep that turns the tree into the exclusive
// scan. Inclusive is the exclusive prefix combined with the element itself, which the thread
// still holds in a register. Shared: conflict_free(2 * blockDim.x) elements.
template <class In, class Out, class O>
__global__ void scan_blelloch_bcao(const In* __restrict__ in, Out* __restrict__ out,
                                   acc_t<In>* __restrict__ totals, std::size_t n, bool exclusive) {
  using A = acc_t<In>;
  A* s = shared_array<A>();
  const unsigned tid = threadIdx.x, tile = 2 * blockDim.x;
  const std::size_t base = std::size_t(blockIdx.x) * tile;
  // The two halves of the tile, as in GPU Gems: coalesced loads, conflict-free slots.
  const unsigned a = tid, b = tid + blockDim.x;
  const A xa = load_or_identity<In, O>(in, base + a, n);
  const A xb = load_or_identity<In, O>(in, base + b, n);
  s[conflict_free(a)] = xa;
  s[conflict_free(b)] = xb;

  unsigned offset = 1;
  for (unsigned d = tile / 2; d > 0; d /= 2) {  // up-sweep (reduce)
    __syncthreads();
    if (tid < d) {
      const unsigned left = conflict_free(offset * (2 * tid + 1) - 1);
      const unsigned right = conflict_free(offset * (2 * tid + 2) - 1);
      s[right] = O::apply(s[left], s[right]);
    }
    offset *= 2;
  }
  __syncthreads();
  if (tid == 0) {
    const unsigned root = conflict_free(tile - 1);
    if (totals) totals[blockIdx.x] = s[root];
    s[root] = O::template identity<A>();
  }
  for (unsigned d = 1; d < tile; d *= 2) {  // down-sweep
    offset /= 2;
    __syncthreads();
    if (tid < d) {
      const unsigned left = conflict_free(offset * (2 * tid + 1) - 1);
      const unsigned right = conflict_free(offset * (2 * tid + 2) - 1);
      const A t = s[left];
      s[left] = s[right];                // the left child inherits its parent's prefix
      s[right] = O::apply(s[right], t);  // the right one: that prefix, then the left subtree
    }
  }
  __syncthreads();
  const A ea = s[conflict_free(a)], eb = s[conflict_free(b)];
  if (base + a < n) out[base + a] = from_acc<Out>(exclusive ? ea : O::apply(ea, xa));
  if (base + b < n) out[base + b] = from_acc<Out>(exclusive ? eb : O::apply(eb, xb));
}

// Inclusive Kogge-Stone scan of one value per lane in registers; a full warp calls it.
template <class T, class O>
__device__ __forceinline__ T warp_scan_inclusive(T v) {
  const unsigned lane = threadIdx.x % warpSize;
  for (unsigned off = 1; off < warpSize; off *= 2) {
    const T left = __shfl_up_sync(kFullMask, v, off);
    if (lane >= off) v = O::apply(left, v);
  }
  return v;
}

// warp/shuffle-up: the register rung (the classic warp-shuffle reduce takes the shuffles to reduce;
// this is the same step for scan). The tile is staged through padded shared memory so that global
// loads and stores stay coalesced while each thread scans kItems consecutive items serially in
// registers; the thread totals are scanned per warp with __shfl_up_sync, the warp totals by warp 0,
// and each thread's items are combined with the prefix of the warps and lanes before it.
template <class In, class Out, class O, unsigned kBlock, unsigned kItems>
__global__ void __launch_bounds__(kBlock)
    scan_warp_shuffle_up(const In* __restrict__ in, Out* __restrict__ out,
                         acc_t<In>* __restrict__ totals, std::size_t n, bool exclusive) {
  using A = acc_t<In>;
  constexpr unsigned kTile = kBlock * kItems, kWarps = kBlock / 32;
  static_assert(kWarps >= 1 && kWarps <= 32, "warp totals are scanned by one warp");
  __shared__ A s[kTile + kTile / 32];  // indexed through conflict_free
  __shared__ A warp_totals[kWarps];
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const std::size_t base = std::size_t(blockIdx.x) * kTile;

#pragma unroll
  for (unsigned k = 0; k < kItems; ++k)
    s[conflict_free(k * kBlock + tid)] = load_or_identity<In, O>(in, base + k * kBlock + tid, n);
  __syncthreads();

  A x[kItems];  // this thread's items, scanned serially (inclusive)
#pragma unroll
  for (unsigned k = 0; k < kItems; ++k) x[k] = s[conflict_free(tid * kItems + k)];
#pragma unroll
  for (unsigned k = 1; k < kItems; ++k) x[k] = O::apply(x[k - 1], x[k]);

  const A lanes_incl = warp_scan_inclusive<A, O>(x[kItems - 1]);
  A lanes_before = __shfl_up_sync(kFullMask, lanes_incl, 1);
  if (lane == 0) lanes_before = O::template identity<A>();
  if (lane == 31) warp_totals[warp] = lanes_incl;
  __syncthreads();  // also: every thread has read its items, so `s` may be overwritten below
  if (warp == 0) {
    A w = lane < kWarps ? warp_totals[lane] : O::template identity<A>();
    w = warp_scan_inclusive<A, O>(w);
    if (lane < kWarps) warp_totals[lane] = w;
  }
  __syncthreads();
  const A prefix =
      warp ? O::apply(warp_totals[warp - 1], lanes_before) : lanes_before;  // items before x[0]
  if (totals && tid == 0) totals[blockIdx.x] = warp_totals[kWarps - 1];

#pragma unroll
  for (unsigned k = 0; k < kItems; ++k) {
    const A r = exclusive ? (k ? O::apply(prefix, x[k - 1]) : prefix) : O::apply(prefix, x[k]);
    s[conflict_free(tid * kItems + k)] = r;
  }
  __syncthreads();
#pragma unroll
  for (unsigned k = 0; k < kItems; ++k) {
    const std::size_t i = base + k * kBlock + tid;
    if (i < n) out[i] = from_acc<Out>(s[conflict_free(k * kBlock + tid)]);
  }
}

// The down-sweep between levels: tile t (t >= first_tile) of `src` gets prefix[t], the exclusive
// scan of the tile totals, combined in front of each element, and goes to `dst` (the same array,
// except at level 0 of a 16-bit scan: there the tile scans wrote float prefixes to scratch, and
// this is where each output is rounded, once). Tile 0's prefix is the identity, so an in-place
// pass starts at tile 1. The tile is `tile` elements, covered by blockDim.x threads in strides.
template <class In, class Out, class O>
__global__ void uniform_add(const In* src, Out* dst, const acc_t<In>* __restrict__ prefix,
                            std::size_t n, std::size_t tile, unsigned first_tile) {
  const std::size_t t = std::size_t(blockIdx.x) + first_tile;
  const std::size_t base = t * tile;
  const acc_t<In> p = prefix[t];
  for (std::size_t e = threadIdx.x; e < tile; e += blockDim.x) {
    const std::size_t i = base + e;
    if (i < n) dst[i] = from_acc<Out>(O::apply(p, to_acc(src[i])));
  }
}

}  // namespace xr::cuda::kernels
