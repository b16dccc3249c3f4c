// fast/* scans: bandwidth-bound tiles. A tile is kBlock threads x kVecs 16-byte vectors per
// thread. Each warp owns kVecs consecutive segments of 32 vectors and reads segment k as one
// fully coalesced 512-byte access (lane l takes the l-th 16 bytes: 4 32-bit, 8 16-bit or 2
// 64-bit elements), so loads and stores need no shared-memory transpose. Within a segment: a
// serial scan of the lane's elements, a Kogge-Stone shuffle scan of the 32 lane totals, and the
// carry of the warp's earlier segments; then the warps' totals through shared memory. Everything
// past the load is in the accumulator (float for f16 / bf16); each output is rounded once.
//
// fast/reduce-then-scan: reduce each block's chunk of tiles, scan the partials in one block,
// rescan the chunks from their prefixes (reads n twice, writes once; one launch when one block
// covers n).
// fast/decoupled-lookback: one pass (Merrill & Garland 2016). Tiles are claimed in order from an
// atomic counter, so a tile only ever waits on tiles whose blocks are already running: no
// assumption about the order in which the hardware starts blocks. Each tile publishes its
// aggregate, looks back over its predecessors' status words with one warp, then publishes its
// inclusive prefix. A 4-byte accumulator shares one 64-bit word with its status, read and
// written atomically (CUB's ScanTileState for 4-byte values), so a reader can never pair a flag
// with a stale value; an 8-byte one is split over two such words, a half each, matched by their
// status (HalvesTileStates; SplitTileStates, slots ordered by release/acquire, is the layout the
// tuning sweep measures it against).
#pragma once

#include <cuda/atomic>
#include <cuda/std/bit>

#include "kernels/reduce_fast.cuh"
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

// T is the storage type, A = acc_t<T> the accumulator every register and shared value of the
// scan is held in; an output element is its accumulator prefix rounded to T once (16-bit floats).
template <class T, class O, int kBlock, int kVecs>
struct TileScan {
  using A = acc_t<T>;
  static constexpr int kPack = Pack<T>::kCount;  // elements per 16-byte vector
  static constexpr int kWarps = kBlock / 32;
  static constexpr int kSegment = 32 * kPack;  // elements one warp reads per 16-byte access
  static constexpr int kWarpItems = kVecs * kSegment;
  static constexpr std::size_t kTile = std::size_t(kBlock) * kVecs * kPack;
  static_assert(kBlock % 32 == 0 && kBlock <= 1024, "whole warps");

  A t[kVecs][kPack];     // lane-local inclusive scan of the lane's elements of segment k
  A lane_prefix[kVecs];  // everything before the lane's elements within the warp
  A warp_prefix;         // everything before this warp within the tile
  A aggregate;           // the whole tile

  // Index of element j of this lane's vector in segment k.
  __device__ __forceinline__ static std::size_t index(std::size_t tile_base, int k, int j) {
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    return tile_base + std::size_t(warp) * kWarpItems + std::size_t(k) * kSegment + lane * kPack +
           j;
  }

  // Loads the tile at tile_base into `dst`, widened to A (elements past n are the identity):
  // 16-byte loads for a whole tile (`in` is 16-byte aligned and the tile a whole number of
  // vectors), element by element for the last one.
  __device__ __forceinline__ static void load(const T* __restrict__ in, std::size_t tile_base,
                                              std::size_t n, A (&dst)[kVecs][kPack]) {
    if (tile_base + kTile <= n) {
      Pack<T> v[kVecs];
#pragma unroll
      for (int k = 0; k < kVecs; ++k) v[k] = load_pack(in + index(tile_base, k, 0));
#pragma unroll
      for (int k = 0; k < kVecs; ++k)
#pragma unroll
        for (int j = 0; j < kPack; ++j) dst[k][j] = to_acc(v[k].e[j]);
    } else {
#pragma unroll
      for (int k = 0; k < kVecs; ++k)
#pragma unroll
        for (int j = 0; j < kPack; ++j)
          dst[k][j] = load_or_identity<T, O>(in, index(tile_base, k, j), n);
    }
  }

  __device__ __forceinline__ void load_and_scan(const T* __restrict__ in, std::size_t tile_base,
                                                std::size_t n, A* warp_totals) {
    load(in, tile_base, n, t);
    scan(warp_totals);
  }

  // Scans the loaded tile `t`. `warp_totals`: kWarps slots of shared memory. Two barriers: all
  // threads of the block must call it.
  __device__ __forceinline__ void scan(A* warp_totals) {
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const A id = O::template identity<A>();
    A carry = id;  // the warp's earlier segments
#pragma unroll
    for (int k = 0; k < kVecs; ++k) {
#pragma unroll
      for (int j = 1; j < kPack; ++j) t[k][j] = O::apply(t[k][j - 1], t[k][j]);
      const A incl = warp_inclusive_scan<A, O>(t[k][kPack - 1]);
      const A up = __shfl_up_sync(kFullMask, incl, 1);
      lane_prefix[k] = lane == 0 ? carry : O::apply(carry, up);
      carry = O::apply(carry, __shfl_sync(kFullMask, incl, 31));
    }
    if (lane == 31) warp_totals[warp] = carry;
    __syncthreads();
    A before = id, all = id;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      if (w == int(warp)) before = all;
      all = O::apply(all, warp_totals[w]);
    }
    warp_prefix = before;
    aggregate = all;
    __syncthreads();  // warp_totals may be reused by the next tile
  }

  // Stores the tile, every element combined with `prefix` (everything before the tile) and
  // rounded to T once.
  __device__ __forceinline__ void store(T* __restrict__ out, std::size_t tile_base, std::size_t n,
                                        A prefix, bool exclusive) {
    const A base = O::apply(prefix, warp_prefix);
    Pack<T> y[kVecs];
#pragma unroll
    for (int k = 0; k < kVecs; ++k) {
      const A p = O::apply(base, lane_prefix[k]);
      if (exclusive) {
        y[k].e[0] = from_acc<T>(p);
#pragma unroll
        for (int j = 1; j < kPack; ++j) y[k].e[j] = from_acc<T>(O::apply(p, t[k][j - 1]));
      } else {
#pragma unroll
        for (int j = 0; j < kPack; ++j) y[k].e[j] = from_acc<T>(O::apply(p, t[k][j]));
      }
    }
    if (tile_base + kTile <= n) {
#pragma unroll
      for (int k = 0; k < kVecs; ++k) store_pack(out + index(tile_base, k, 0), y[k]);
    } else {
#pragma unroll
      for (int k = 0; k < kVecs; ++k)
#pragma unroll
        for (int j = 0; j < kPack; ++j) {
          const std::size_t i = index(tile_base, k, j);
          if (i < n) out[i] = y[k].e[j];
        }
    }
  }
};

// --- fast/reduce-then-scan ---------------------------------------------------------------------

// Pass 1: block b folds elements [b*chunk, (b+1)*chunk) (chunk a multiple of the tile, so
// 16-byte aligned) into partials[b], in the accumulator. kUnroll vectors in flight per thread.
template <class T, class O, int kBlock, int kUnroll>
__global__ void __launch_bounds__(kBlock)
    scan_rts_reduce(const T* __restrict__ in, acc_t<T>* __restrict__ partials, std::size_t n,
                    std::size_t chunk) {
  const std::size_t begin = std::size_t(blockIdx.x) * chunk;
  const std::size_t end = begin + chunk < n ? begin + chunk : n;
  acc_t<T> acc =
      thread_fold_vectorized<T, O, kUnroll>(in + begin, end - begin, threadIdx.x, kBlock);
  acc = block_reduce<acc_t<T>, O>(acc);
  if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}

// Pass 2: one block turns `count` partials (accumulator values A) into their exclusive
// prefixes, in place. Each thread folds a run of consecutive partials, the runs' totals are
// scanned across the block.
template <class A, class O, int kBlock>
__global__ void __launch_bounds__(kBlock) scan_rts_partials(A* partials, std::size_t count) {
  __shared__ A warp_totals[kBlock / 32];
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const std::size_t per = (count + kBlock - 1) / kBlock;
  const std::size_t begin = threadIdx.x * per;
  const std::size_t end = begin + per < count ? begin + per : count;
  A run = O::template identity<A>();
  for (std::size_t i = begin; i < end; ++i) run = O::apply(run, partials[i]);
  const A incl = warp_inclusive_scan<A, O>(run);
  if (lane == 31) warp_totals[warp] = incl;
  __syncthreads();
  A before = O::template identity<A>();
  for (unsigned w = 0; w < warp; ++w) before = O::apply(before, warp_totals[w]);
  const A up = __shfl_up_sync(kFullMask, incl, 1);
  A prefix = lane == 0 ? before : O::apply(before, up);
  for (std::size_t i = begin; i < end; ++i) {
    const A x = partials[i];
    partials[i] = prefix;
    prefix = O::apply(prefix, x);
  }
}

// Pass 3: block b rescans its chunk tile by tile from its prefix (the identity when `prefixes`
// is null: one block, passes 1 and 2 skipped). Each output is rounded once: the prefix is added
// in the accumulator before the store.
template <class T, class O, int kBlock, int kVecs>
__global__ void __launch_bounds__(kBlock)
    scan_rts_tiles(const T* __restrict__ in, T* __restrict__ out,
                   const acc_t<T>* __restrict__ prefixes, std::size_t n, std::size_t chunk,
                   bool exclusive) {
  using Tile = TileScan<T, O, kBlock, kVecs>;
  using A = acc_t<T>;
  __shared__ A warp_totals[Tile::kWarps];
  const std::size_t begin = std::size_t(blockIdx.x) * chunk;
  const std::size_t end = begin + chunk < n ? begin + chunk : n;
  A running = prefixes ? prefixes[blockIdx.x] : O::template identity<A>();
  for (std::size_t base = begin; base < end; base += Tile::kTile) {
    Tile tile;
    tile.load_and_scan(in, base, end, warp_totals);
    tile.store(out, base, end, running, exclusive);
    running = O::apply(running, tile.aggregate);
  }
}

// --- fast/decoupled-lookback -------------------------------------------------------------------

// A tile's status: kAggregate once its own total is published, kPrefix once everything up to and
// including it is. Each status carries the launch's epoch (30 bits, stored as epoch << 2 | flag):
// words of an earlier launch read as "not yet published", so the states need no reset between
// launches (dispatch re-zeroes them once per 2^30 - 1 launches).
struct TileStatus {
  static constexpr unsigned kAggregate = 1;
  static constexpr unsigned kPrefix = 2;
  __device__ __forceinline__ static unsigned word(unsigned epoch, unsigned flag) {
    return (epoch << 2) | flag;
  }
  // 0 when the status is not of this epoch (not yet published), else its flag.
  __device__ __forceinline__ static unsigned flag(unsigned status, unsigned epoch) {
    return (status >> 2) == epoch ? (status & 3u) : 0u;
  }
};

// What a look-back launch needs besides its arrays. `states` holds one status word per tile (the
// layout is the tile states class's), `values` the 8-byte accumulators' value slots (null for
// 4-byte ones). `counter` hands out tile numbers: launch L (0-based) draws base..base+tiles-1
// with base = L * tiles, so it never needs a reset either. The two pauses keep hundreds of
// waiting warps from hammering the same L2 lines (CUB's delay constructors do the same):
// `first_wait_ns` before the first look at the predecessors, while their writes travel to L2;
// `spin_ns` between polls of a window that is not complete yet. Both apply only to grids of many
// blocks, where such contention arises.
struct LookBackArgs {
  void* states;
  void* values;
  unsigned long long* counter;
  unsigned long long base;
  unsigned epoch;
  unsigned first_wait_ns;
  unsigned spin_ns;
  bool exclusive;
};

// Tile states of a 4-byte accumulator (32-bit types, and f16 / bf16, which accumulate in
// float): status and value share one 64-bit word (status high, value bits low), written and read
// with relaxed device-scope atomics (CUB's ScanTileState for 4-byte values). A reader gets flag
// and value from one single-copy-atomic access, so it can never pair a flag with a stale value.
template <class A>
struct PackedTileStates {
  static_assert(sizeof(A) == 4, "the value takes the low half of the word");
  static constexpr std::size_t kStatusBytes = 8, kValueBytes = 0;  // per tile
  unsigned long long* words;

  struct Observed {
    unsigned flag;
    A value;
  };

  __device__ __forceinline__ static PackedTileStates from(const LookBackArgs& a) {
    return {static_cast<unsigned long long*>(a.states)};
  }
  __device__ __forceinline__ void publish(std::size_t tile, unsigned epoch, unsigned flag,
                                          A v) const {
    const unsigned long long w =
        (static_cast<unsigned long long>(TileStatus::word(epoch, flag)) << 32) |
        ::cuda::std::bit_cast<unsigned>(v);
    ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device>(words[tile])
        .store(w, ::cuda::memory_order_relaxed);
  }
  __device__ __forceinline__ Observed observe(std::size_t tile, unsigned epoch) const {
    const unsigned long long w =
        ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device>(words[tile])
            .load(::cuda::memory_order_relaxed);
    return {TileStatus::flag(static_cast<unsigned>(w >> 32), epoch),
            ::cuda::std::bit_cast<A>(static_cast<unsigned>(w))};
  }
  // Nothing to order: the value came in the same atomic access as its flag.
  __device__ __forceinline__ void acquire() const {}
  __device__ __forceinline__ A value(std::size_t, const Observed& seen) const { return seen.value; }
};

// Tile states of an 8-byte accumulator (i64, u64, f64): flag and value do not fit one 64-bit word
// together, and the PTX memory model makes a 16-byte vector access (ld/st .v2.u64, .v4.u32) several
// scalar accesses in no set order, so a 16-byte word {value, status} could be read torn (the newer
// .b128 accesses are not relied on). So each tile has a 32-bit status word and two value slots, its
// aggregate and its inclusive prefix, each written once per launch, and the flag orders them (as
// CUB does for values too large to pack):
// - writer: relaxed store of the value into its slot, then a release store of the status that
//   names that slot;
// - reader: relaxed polls of the status until every lane's tile has published, then an acquire
//   fence, then a relaxed load of the slot the observed flag names.
// A relaxed load that reads a release store, followed by an acquire fence, synchronises with it
// (the PTX model's release and acquire patterns), so the slot load sees the value stored before
// the status, never an older launch's. A slot is never rewritten within a launch (a flag of the
// current epoch means its slot holds this launch's value), and launches on one stream do not
// overlap. Two dependent L2 round trips per look-back step instead of one: correctness first.
template <class A>
struct SplitTileStates {
  static_assert(sizeof(A) == 8, "8-byte accumulators");
  static constexpr std::size_t kStatusBytes = 4, kValueBytes = 2 * sizeof(A);  // per tile
  unsigned* status;
  A* slots;  // per tile: [2 * tile] its aggregate, [2 * tile + 1] its inclusive prefix

  struct Observed {
    unsigned flag;
  };

  __device__ __forceinline__ static SplitTileStates from(const LookBackArgs& a) {
    return {static_cast<unsigned*>(a.states), static_cast<A*>(a.values)};
  }
  __device__ __forceinline__ A& slot(std::size_t tile, unsigned flag) const {
    return slots[2 * tile + (flag == TileStatus::kPrefix ? 1 : 0)];
  }
  __device__ __forceinline__ void publish(std::size_t tile, unsigned epoch, unsigned flag,
                                          A v) const {
    ::cuda::atomic_ref<A, ::cuda::thread_scope_device>(slot(tile, flag))
        .store(v, ::cuda::memory_order_relaxed);
    ::cuda::atomic_ref<unsigned, ::cuda::thread_scope_device>(status[tile])
        .store(TileStatus::word(epoch, flag), ::cuda::memory_order_release);
  }
  __device__ __forceinline__ Observed observe(std::size_t tile, unsigned epoch) const {
    const unsigned s = ::cuda::atomic_ref<unsigned, ::cuda::thread_scope_device>(status[tile])
                           .load(::cuda::memory_order_relaxed);
    return {TileStatus::flag(s, epoch)};
  }
  // Every lane calls it after its last poll and before value(): the acquire half of the pairing.
  __device__ __forceinline__ void acquire() const {
    ::cuda::atomic_thread_fence(::cuda::memory_order_acquire, ::cuda::thread_scope_device);
  }
  __device__ __forceinline__ A value(std::size_t tile, const Observed& seen) const {
    return ::cuda::atomic_ref<A, ::cuda::thread_scope_device>(slot(tile, seen.flag))
        .load(::cuda::memory_order_relaxed);
  }
};

// Tile states of an 8-byte accumulator in one round trip: two 64-bit words per tile, each with
// the status (epoch and flag) in its high half and one 32-bit half of the value in its low half
// (the Vulkan look-back's layout, shaders/scan_lookback.comp), written and read with relaxed
// device-scope atomics. A reader takes the value only when both words carry the same status of
// this epoch: each (tile, epoch, flag) is published by one block, once, so matching words are the
// halves of one value; halves of the aggregate and of the prefix read as "not yet" and are polled
// again. Both loads are independent: one L2 round trip per look-back step, as for 4-byte values,
// where SplitTileStates takes two dependent ones.
template <class A>
struct HalvesTileStates {
  static_assert(sizeof(A) == 8, "8-byte accumulators");
  static constexpr std::size_t kStatusBytes = 16, kValueBytes = 0;  // per tile
  unsigned long long* words;  // [2 * tile] the low half's word, [2 * tile + 1] the high half's

  struct Observed {
    unsigned flag;
    A value;
  };

  __device__ __forceinline__ static HalvesTileStates from(const LookBackArgs& a) {
    return {static_cast<unsigned long long*>(a.states)};
  }
  __device__
      __forceinline__ static ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device>
      ref(unsigned long long& w) {
    return ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device>(w);
  }
  __device__ __forceinline__ void publish(std::size_t tile, unsigned epoch, unsigned flag,
                                          A v) const {
    const auto bits = ::cuda::std::bit_cast<unsigned long long>(v);
    const unsigned long long status = static_cast<unsigned long long>(TileStatus::word(epoch, flag))
                                      << 32;
    ref(words[2 * tile]).store(status | (bits & 0xffffffffull), ::cuda::memory_order_relaxed);
    ref(words[2 * tile + 1]).store(status | (bits >> 32), ::cuda::memory_order_relaxed);
  }
  __device__ __forceinline__ Observed observe(std::size_t tile, unsigned epoch) const {
    const unsigned long long lo = ref(words[2 * tile]).load(::cuda::memory_order_relaxed);
    const unsigned long long hi = ref(words[2 * tile + 1]).load(::cuda::memory_order_relaxed);
    const unsigned status = static_cast<unsigned>(lo >> 32);
    return {status == static_cast<unsigned>(hi >> 32) ? TileStatus::flag(status, epoch) : 0u,
            ::cuda::std::bit_cast<A>((hi << 32) | (lo & 0xffffffffull))};
  }
  __device__ __forceinline__ void acquire() const {}
  __device__ __forceinline__ A value(std::size_t, const Observed& seen) const { return seen.value; }
};

// The layout of each accumulator size. 8-byte: halves, one round trip, over split, two: halves
// is faster at every tile shape compared, with no wrong element in any integer run (the runs
// are in docs/results/H200/tuning-notes.md).
template <class A>
using TileStates = std::conditional_t<sizeof(A) == 4, PackedTileStates<A>, HalvesTileStates<A>>;

// Warp 0 of tile `tile` (> 0): the combination of every earlier tile. Lane l watches tile
// (window end - l); the window slides back 32 tiles at a time until it meets a published prefix.
// `spin_ns`: back-off between polls of a window that is not complete yet (0: none).
template <class A, class O, class States>
__device__ __forceinline__ A look_back(const States& states, std::size_t tile, unsigned epoch,
                                       unsigned spin_ns) {
  const unsigned lane = threadIdx.x % 32;
  A exclusive = O::template identity<A>();
  long long end = static_cast<long long>(tile) - 1;
  for (;;) {
    const long long idx = end - lane;
    typename States::Observed seen{};
    unsigned flag;
    for (;;) {  // every lane's tile has published at least its aggregate
      if (idx >= 0) seen = states.observe(idx, epoch);
      flag = idx >= 0 ? seen.flag : TileStatus::kPrefix;  // before tile 0: the identity
      if (!__any_sync(kFullMask, flag == 0)) break;
      if (spin_ns) __nanosleep(spin_ns);
    }
    states.acquire();
    const unsigned prefixes = __ballot_sync(kFullMask, flag == TileStatus::kPrefix);
    const unsigned last = prefixes ? __ffs(prefixes) - 1 : 31;  // nearest published prefix
    A v = lane <= last && idx >= 0 ? states.value(idx, seen) : O::template identity<A>();
    v = warp_reduce_xor<A, O>(v);
    exclusive = O::apply(v, exclusive);
    if (prefixes) return exclusive;
    end -= 32;
  }
}

// Warp 0's part of a tile: publish the aggregate, look back, publish the inclusive prefix;
// returns the tile's exclusive prefix (in every lane of warp 0).
template <class A, class O, class States>
__device__ __forceinline__ A publish_and_look_back(const States& states, std::size_t tile_index,
                                                   A aggregate, unsigned epoch,
                                                   unsigned first_wait_ns, unsigned spin_ns) {
  A prefix = O::template identity<A>();
  if (tile_index == 0) {
    if (threadIdx.x == 0) states.publish(0, epoch, TileStatus::kPrefix, aggregate);
    return prefix;
  }
  if (threadIdx.x == 0) states.publish(tile_index, epoch, TileStatus::kAggregate, aggregate);
  if (first_wait_ns) __nanosleep(first_wait_ns);
  prefix = look_back<A, O>(states, tile_index, epoch, spin_ns);
  if (threadIdx.x == 0)
    states.publish(tile_index, epoch, TileStatus::kPrefix, O::apply(prefix, aggregate));
  return prefix;
}

// Grids below this many blocks never pause (few waiters, and every pause is latency).
constexpr unsigned kPauseGridThreshold = 500;

// One block per tile. With kTicket the tile number comes from the counter, so a tile only ever
// waits on tiles whose blocks already run, whatever order the hardware starts blocks in;
// without it (the tuning sweep only) blockIdx.x is the tile, as CUB does.
template <class T, class O, int kBlock, int kVecs, bool kTicket = true,
          class States = TileStates<acc_t<T>>>
__global__ void __launch_bounds__(kBlock)
    scan_decoupled_lookback(const T* __restrict__ in, T* __restrict__ out, std::size_t n,
                            LookBackArgs a) {
  using Tile = TileScan<T, O, kBlock, kVecs>;
  using A = acc_t<T>;
  __shared__ A warp_totals[Tile::kWarps];
  __shared__ unsigned long long tile_shared;
  __shared__ A prefix_shared;
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
    const A prefix =
        publish_and_look_back<A, O>(States::from(a), tile_index, tile.aggregate, a.epoch,
                                    pause ? a.first_wait_ns : 0, pause ? a.spin_ns : 0);
    if (threadIdx.x == 0) prefix_shared = prefix;
  }
  __syncthreads();
  tile.store(out, tile_base, n, prefix_shared, a.exclusive);
}

}  // namespace xr::cuda::kernels
