// fast/* scans: bandwidth-bound tiles. A tile is kBlock threads x kVecs 16-byte vectors per
// thread. Each warp owns kVecs consecutive segments of 128 elements and reads segment k as one
// fully coalesced 512-byte access (lane l takes elements 4l..4l+3 of it), so loads and stores
// need no shared-memory transpose. Within a segment: a serial scan of the lane's 4 elements, a
// Kogge-Stone shuffle scan of the 32 lane totals, and the carry of the warp's earlier segments;
// then the warps' totals through shared memory.
//
// fast/reduce-then-scan: reduce each block's chunk of tiles, scan the partials in one block,
// rescan the chunks from their prefixes (reads n twice, writes once; one launch when one block
// covers n).
// fast/decoupled-lookback: one pass (Merrill & Garland 2016). Tiles are claimed in order from an
// atomic counter, so a tile only ever waits on tiles whose blocks are already running: no
// assumption about the order in which the hardware starts blocks. Each tile publishes its
// aggregate, looks back over its predecessors' status words with one warp, then publishes its
// inclusive prefix. Status and value share one 64-bit word read and written atomically (CUB's
// ScanTileState for 4-byte values), so a reader can never pair a flag with a stale value.
#pragma once

#include <cuda/atomic>

#include "kernels/fast.cuh"
#include "kernels/warp_reduce.cuh"

namespace xr::cuda::kernels {

// --- warp level ------------------------------------------------------------------------------

// Inclusive Kogge-Stone scan of one value per lane (lane 0 first).
template <class T, class O>
__device__ __forceinline__ T warp_inclusive_scan(T v) {
  const unsigned lane = threadIdx.x % 32;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const T up = __shfl_up_sync(kFullMask, v, d);
    if (lane >= d) v = O::apply(up, v);
  }
  return v;
}

// --- one tile --------------------------------------------------------------------------------

template <class T, class O, int kBlock, int kVecs>
struct TileScan {
  static constexpr int kWarps = kBlock / 32;
  static constexpr int kSegment = 32 * 4;  // elements one warp reads per 16-byte access
  static constexpr int kWarpItems = kVecs * kSegment;
  static constexpr std::size_t kTile = std::size_t(kBlock) * kVecs * 4;
  static_assert(kBlock % 32 == 0 && kBlock <= 1024, "whole warps");
  static_assert(sizeof(T) == 4, "16-byte vectors of 4 elements");

  using V = typename Vec4<T>::type;

  T t[kVecs][4];         // lane-local inclusive scan of the lane's 4 elements of segment k
  T lane_prefix[kVecs];  // everything before the lane's 4 elements within the warp
  T warp_prefix;         // everything before this warp within the tile
  T aggregate;           // the whole tile

  // Index of element j of this lane's vector in segment k.
  __device__ __forceinline__ static std::size_t index(std::size_t tile_base, int k, int j) {
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    return tile_base + std::size_t(warp) * kWarpItems + std::size_t(k) * kSegment + lane * 4 + j;
  }

  // Loads the tile at tile_base into `dst` (elements past n are the identity): 16-byte loads for
  // a whole tile, element by element for the last one.
  __device__ __forceinline__ static void load(const T* __restrict__ in, std::size_t tile_base,
                                              std::size_t n, T (&dst)[kVecs][4]) {
    if (tile_base + kTile <= n) {
      const V* vin = reinterpret_cast<const V*>(in + index(tile_base, 0, 0));
      V v[kVecs];
#pragma unroll
      for (int k = 0; k < kVecs; ++k) v[k] = __ldg(vin + k * (kSegment / 4));
#pragma unroll
      for (int k = 0; k < kVecs; ++k) {
        dst[k][0] = T(v[k].x);
        dst[k][1] = T(v[k].y);
        dst[k][2] = T(v[k].z);
        dst[k][3] = T(v[k].w);
      }
    } else {
#pragma unroll
      for (int k = 0; k < kVecs; ++k)
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          const std::size_t i = index(tile_base, k, j);
          dst[k][j] = i < n ? in[i] : O::template identity<T>();
        }
    }
  }

  __device__ __forceinline__ void load_and_scan(const T* __restrict__ in, std::size_t tile_base,
                                                std::size_t n, T* warp_totals) {
    load(in, tile_base, n, t);
    scan(warp_totals);
  }

  // Scans the loaded tile `t`. `warp_totals`: kWarps slots of shared memory. Two barriers: all
  // threads of the block must call it.
  __device__ __forceinline__ void scan(T* warp_totals) {
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const T id = O::template identity<T>();
    T carry = id;  // the warp's earlier segments
#pragma unroll
    for (int k = 0; k < kVecs; ++k) {
      t[k][1] = O::apply(t[k][0], t[k][1]);
      t[k][2] = O::apply(t[k][1], t[k][2]);
      t[k][3] = O::apply(t[k][2], t[k][3]);
      const T incl = warp_inclusive_scan<T, O>(t[k][3]);
      const T up = __shfl_up_sync(kFullMask, incl, 1);
      lane_prefix[k] = lane == 0 ? carry : O::apply(carry, up);
      carry = O::apply(carry, __shfl_sync(kFullMask, incl, 31));
    }
    if (lane == 31) warp_totals[warp] = carry;
    __syncthreads();
    T before = id, all = id;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      if (w == int(warp)) before = all;
      all = O::apply(all, warp_totals[w]);
    }
    warp_prefix = before;
    aggregate = all;
    __syncthreads();  // warp_totals may be reused by the next tile
  }

  // Stores the tile, every element combined with `prefix` (everything before the tile).
  __device__ __forceinline__ void store(T* __restrict__ out, std::size_t tile_base, std::size_t n,
                                        T prefix, bool exclusive) {
    const T base = O::apply(prefix, warp_prefix);
    T y[kVecs][4];
#pragma unroll
    for (int k = 0; k < kVecs; ++k) {
      const T p = O::apply(base, lane_prefix[k]);
      if (exclusive) {
        y[k][0] = p;
        y[k][1] = O::apply(p, t[k][0]);
        y[k][2] = O::apply(p, t[k][1]);
        y[k][3] = O::apply(p, t[k][2]);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j) y[k][j] = O::apply(p, t[k][j]);
      }
    }
    if (tile_base + kTile <= n) {
      V* vout = reinterpret_cast<V*>(out + index(tile_base, 0, 0));
#pragma unroll
      for (int k = 0; k < kVecs; ++k) {
        V v;
        v.x = y[k][0];
        v.y = y[k][1];
        v.z = y[k][2];
        v.w = y[k][3];
        vout[k * (kSegment / 4)] = v;
      }
    } else {
#pragma unroll
      for (int k = 0; k < kVecs; ++k)
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          const std::size_t i = index(tile_base, k, j);
          if (i < n) out[i] = y[k][j];
        }
    }
  }
};

// --- fast/reduce-then-scan ---------------------------------------------------------------------

// Pass 1: block b folds elements [b*chunk, (b+1)*chunk) (chunk a multiple of the tile, so
// 16-byte aligned) into partials[b]. kUnroll vectors in flight per thread.
template <class T, class O, int kBlock, int kUnroll>
__global__ void __launch_bounds__(kBlock)
    scan_rts_reduce(const T* __restrict__ in, T* __restrict__ partials, std::size_t n,
                    std::size_t chunk) {
  const std::size_t begin = std::size_t(blockIdx.x) * chunk;
  const std::size_t end = begin + chunk < n ? begin + chunk : n;
  T acc = thread_fold_vectorized<T, O, kUnroll>(in + begin, end - begin, threadIdx.x, kBlock);
  acc = block_reduce<T, O>(acc);
  if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}

// Pass 2: one block turns `count` partials into their exclusive prefixes, in place. Each thread
// folds a run of consecutive partials, the runs' totals are scanned across the block.
template <class T, class O, int kBlock>
__global__ void __launch_bounds__(kBlock) scan_rts_partials(T* partials, std::size_t count) {
  __shared__ T warp_totals[kBlock / 32];
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const std::size_t per = (count + kBlock - 1) / kBlock;
  const std::size_t begin = threadIdx.x * per;
  const std::size_t end = begin + per < count ? begin + per : count;
  T run = O::template identity<T>();
  for (std::size_t i = begin; i < end; ++i) run = O::apply(run, partials[i]);
  const T incl = warp_inclusive_scan<T, O>(run);
  if (lane == 31) warp_totals[warp] = incl;
  __syncthreads();
  T before = O::template identity<T>();
  for (unsigned w = 0; w < warp; ++w) before = O::apply(before, warp_totals[w]);
  const T up = __shfl_up_sync(kFullMask, incl, 1);
  T prefix = lane == 0 ? before : O::apply(before, up);
  for (std::size_t i = begin; i < end; ++i) {
    const T x = partials[i];
    partials[i] = prefix;
    prefix = O::apply(prefix, x);
  }
}

// Pass 3: block b rescans its chunk tile by tile from its prefix (the identity when `prefixes`
// is null: one block, passes 1 and 2 skipped).
template <class T, class O, int kBlock, int kVecs>
__global__ void __launch_bounds__(kBlock)
    scan_rts_tiles(const T* __restrict__ in, T* __restrict__ out, const T* __restrict__ prefixes,
                   std::size_t n, std::size_t chunk, bool exclusive) {
  using Tile = TileScan<T, O, kBlock, kVecs>;
  __shared__ T warp_totals[Tile::kWarps];
  const std::size_t begin = std::size_t(blockIdx.x) * chunk;
  const std::size_t end = begin + chunk < n ? begin + chunk : n;
  T running = prefixes ? prefixes[blockIdx.x] : O::template identity<T>();
  for (std::size_t base = begin; base < end; base += Tile::kTile) {
    Tile tile;
    tile.load_and_scan(in, base, end, warp_totals);
    tile.store(out, base, end, running, exclusive);
    running = O::apply(running, tile.aggregate);
  }
}

// --- fast/decoupled-lookback -------------------------------------------------------------------

// A tile's status word: the high half is (epoch << 2 | flag), the low half the value's bits.
// Words of an earlier launch carry another epoch and read as "not yet published", so the
// states need no reset between launches (dispatch re-zeroes them once per 2^30 - 1 launches).
struct TileStatus {
  static constexpr unsigned kAggregate = 1;  // the tile's own total
  static constexpr unsigned kPrefix = 2;     // everything up to and including the tile

  template <class T>
  __device__ __forceinline__ static unsigned long long pack(unsigned epoch, unsigned flag, T v) {
    return (static_cast<unsigned long long>((epoch << 2) | flag) << 32) | bits(v);
  }
  // 0 when the word is not of this epoch (not yet published), else its flag.
  __device__ __forceinline__ static unsigned flag(unsigned long long w, unsigned epoch) {
    const unsigned hi = static_cast<unsigned>(w >> 32);
    return (hi >> 2) == epoch ? (hi & 3u) : 0u;
  }
  template <class T>
  __device__ __forceinline__ static T value(unsigned long long w) {
    const unsigned lo = static_cast<unsigned>(w);
    if constexpr (std::is_same_v<T, float>)
      return __uint_as_float(lo);
    else
      return static_cast<T>(lo);
  }
  template <class T>
  __device__ __forceinline__ static unsigned bits(T v) {
    if constexpr (std::is_same_v<T, float>)
      return __float_as_uint(v);
    else
      return static_cast<unsigned>(v);
  }
};

__device__ __forceinline__ unsigned long long load_status(unsigned long long* p) {
  return ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device>(*p).load(
      ::cuda::memory_order_relaxed);
}
__device__ __forceinline__ void store_status(unsigned long long* p, unsigned long long w) {
  ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device>(*p).store(
      w, ::cuda::memory_order_relaxed);
}

// Warp 0 of tile `tile` (> 0): the combination of every earlier tile. Lane l watches tile
// (window end - l); the window slides back 32 tiles at a time until it meets a published prefix.
// `spin_ns`: back-off between polls of a window that is not complete yet (0: none).
template <class T, class O>
__device__ __forceinline__ T look_back(unsigned long long* states, std::size_t tile, unsigned epoch,
                                       unsigned spin_ns) {
  const unsigned lane = threadIdx.x % 32;
  T exclusive = O::template identity<T>();
  long long end = static_cast<long long>(tile) - 1;
  for (;;) {
    const long long idx = end - lane;
    unsigned long long w;
    unsigned flag;
    for (;;) {  // every lane's tile has published at least its aggregate
      w = idx >= 0 ? load_status(states + idx)
                   : TileStatus::pack(epoch, TileStatus::kPrefix, O::template identity<T>());
      flag = TileStatus::flag(w, epoch);
      if (!__any_sync(kFullMask, flag == 0)) break;
      if (spin_ns) __nanosleep(spin_ns);
    }
    const unsigned prefixes = __ballot_sync(kFullMask, flag == TileStatus::kPrefix);
    const unsigned last = prefixes ? __ffs(prefixes) - 1 : 31;  // nearest published prefix
    T v = lane <= last ? TileStatus::value<T>(w) : O::template identity<T>();
    v = warp_reduce_xor<T, O>(v);
    exclusive = O::apply(v, exclusive);
    if (prefixes) return exclusive;
    end -= 32;
  }
}

// Warp 0's part of a tile: publish the aggregate, look back, publish the inclusive prefix;
// returns the tile's exclusive prefix (in every lane of warp 0).
template <class T, class O>
__device__ __forceinline__ T publish_and_look_back(unsigned long long* states,
                                                   std::size_t tile_index, T aggregate,
                                                   unsigned epoch, unsigned first_wait_ns,
                                                   unsigned spin_ns) {
  T prefix = O::template identity<T>();
  if (tile_index == 0) {
    if (threadIdx.x == 0)
      store_status(states, TileStatus::pack(epoch, TileStatus::kPrefix, aggregate));
    return prefix;
  }
  if (threadIdx.x == 0)
    store_status(states + tile_index, TileStatus::pack(epoch, TileStatus::kAggregate, aggregate));
  if (first_wait_ns) __nanosleep(first_wait_ns);
  prefix = look_back<T, O>(states, tile_index, epoch, spin_ns);
  if (threadIdx.x == 0)
    store_status(states + tile_index,
                 TileStatus::pack(epoch, TileStatus::kPrefix, O::apply(prefix, aggregate)));
  return prefix;
}

// What a look-back launch needs besides its arrays. `counter` hands out tile numbers: launch L
// (0-based) draws base..base+tiles-1 with base = L * tiles, so it never needs a reset either.
// The two pauses keep hundreds of waiting warps from hammering the same L2 lines (CUB's delay
// constructors do the same): `first_wait_ns` before the first look at the predecessors, while
// their writes travel to L2; `spin_ns` between polls of a window that is not complete yet. Both
// apply only to grids of many blocks, where such contention arises.
struct LookBackArgs {
  unsigned long long* states;
  unsigned long long* counter;
  unsigned long long base;
  unsigned epoch;
  unsigned first_wait_ns;
  unsigned spin_ns;
  bool exclusive;
};

// Grids below this many blocks never pause (few waiters, and every pause is latency).
constexpr unsigned kPauseGridThreshold = 500;

// One block per tile. With kTicket the tile number comes from the counter, so a tile only ever
// waits on tiles whose blocks already run, whatever order the hardware starts blocks in;
// without it (the tuning sweep only) blockIdx.x is the tile, as CUB does.
template <class T, class O, int kBlock, int kVecs, bool kTicket = true>
__global__ void __launch_bounds__(kBlock)
    scan_decoupled_lookback(const T* __restrict__ in, T* __restrict__ out, std::size_t n,
                            LookBackArgs a) {
  using Tile = TileScan<T, O, kBlock, kVecs>;
  __shared__ T warp_totals[Tile::kWarps];
  __shared__ unsigned long long tile_shared;
  __shared__ T prefix_shared;
  std::size_t tile_index = blockIdx.x;
  if (kTicket) {
    if (threadIdx.x == 0) tile_shared = atomicAdd(a.counter, 1ull) - a.base;
    __syncthreads();
    tile_index = tile_shared;
  }
  const std::size_t tile_base = tile_index * Tile::kTile;
  Tile tile;
  tile.load_and_scan(in, tile_base, n, warp_totals);
  if (threadIdx.x < 32) {
    const bool pause = gridDim.x >= kPauseGridThreshold;
    const T prefix =
        publish_and_look_back<T, O>(a.states, tile_index, tile.aggregate, a.epoch,
                                    pause ? a.first_wait_ns : 0, pause ? a.spin_ns : 0);
    if (threadIdx.x == 0) prefix_shared = prefix;
  }
  __syncthreads();
  tile.store(out, tile_base, n, prefix_shared, a.exclusive);
}

}  // namespace xr::cuda::kernels
