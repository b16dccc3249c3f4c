// LSD radix sorting with 8-bit digits: what one digit pass does to a tile of keys, and
// radix/reduce-then-scan's three kernels per pass (Merrill & Grimshaw, "High Performance and
// Scalable Radix Sorting", 2011): an upsweep counts each block's digits into a digit-major
// table, a scan sums each digit's row over the blocks (one block a digit), and a downsweep ranks
// each tile stably and scatters its keys after every smaller digit's and after its digit's keys
// in earlier blocks.
//
// A tile is kBlock threads x kItems keys, warp-striped: warp w owns kItems segments of 32
// consecutive keys, lane l item i the key at w * 32 * kItems + 32 * i + l, so every load is one
// coalesced access per warp. The tile is ranked by warp-level multisplit: for each item, the
// lanes holding the same digit find each other with __match_any_sync, the lowest of them bumps
// the warp's counter of that digit by their number, and each lane's rank is the counter before
// plus its peers in lower lanes. Items go in input order (item-major, then lane), so ranks keep
// equal digits in input order, and warps' counts are prefixed in warp order: the ranking is
// stable. The keys then move through shared memory into digit order, so the global writes of
// consecutive threads fall in runs of one digit.
#pragma once

#include <cstdint>

#include "kernels/ops.cuh"
#include "kernels/scan_fast.cuh"
#include "kernels/sort_keys.cuh"
#include "kernels/sort_values.cuh"
#include "kernels/warp_reduce.cuh"

namespace xr::cuda::kernels {

constexpr unsigned kRadix = 256;       // 8-bit digits
constexpr unsigned kNoDigit = kRadix;  // the digit of a slot past the last key
constexpr unsigned kRadixWarps = kRadix / 32;

// The exclusive prefix sum over digits, one per thread of the first kRadix threads (the others
// pass 0 and get a meaningless value). `warp_totals`: kRadixWarps slots of shared memory. One
// barrier: every thread of the block calls it; the caller syncs before reusing `warp_totals`.
template <class T>
__device__ __forceinline__ T exclusive_scan_over_digits(T v, T* warp_totals) {
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const T inclusive = warp_inclusive_scan<T, SumOp>(v);
  if (warp < kRadixWarps && lane == 31) warp_totals[warp] = inclusive;
  __syncthreads();
  T before = 0;
  for (unsigned w = 0; w < warp && w < kRadixWarps; ++w) before += warp_totals[w];
  return before + inclusive - v;
}

// Calls f(key) for each of the `count` keys at `keys` (16-byte aligned), the block's threads
// striding over 16-byte vectors, kUnroll of them in flight per thread; the tail key by key.
template <class Bits, int kBlock, int kUnroll, class F>
__device__ __forceinline__ void for_each_key(const Bits* __restrict__ keys, std::size_t count,
                                             std::size_t first_thread, std::size_t threads, F&& f) {
  constexpr int kPack = Pack<Bits>::kCount;
  const std::size_t packs = count / kPack;
  for (std::size_t v = first_thread; v < packs; v += threads * kUnroll) {
    Pack<Bits> p[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      if (v + u * threads < packs) p[u] = load_pack(keys + (v + u * threads) * kPack);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      if (v + u * threads < packs)
#pragma unroll
        for (int j = 0; j < kPack; ++j) f(p[u].e[j]);
  }
  for (std::size_t i = packs * kPack + first_thread; i < count; i += threads) f(keys[i]);
}

// What a digit pass reads and writes. The values are the kernel's `Value` (sort_values.cuh).
template <class Bits>
struct RadixPassArgs {
  const Bits* keys_in;
  Bits* keys_out;
  const void* values_in;  // pairs only
  void* values_out;       // pairs only
  std::size_t n;          // or, with `count`, the most the launch takes
  DigitOf<Bits> digit_of;
  const unsigned* count;  // the keys on the device (Sort::enqueue_indirect), or null
};

// The buffers of an LSD sort's passes: the input, the output and the alternates in temporary
// storage (values null for keys alone; u32 or u64, as the kernels' `Value`).
template <class Bits>
struct PassBuffers {
  const Bits* keys_in;
  Bits* keys_out;
  Bits* alt_keys;
  const void* values_in;
  void* values_out;
  void* alt_values;
};

// One tile of one digit pass: load, rank, scatter. The members are registers (every loop over
// items is unrolled); Shared is the block's shared memory for it. A key's digit is recomputed
// where it is needed rather than held: registers bound the blocks per SM, ALU time is idle.
// `Value`: what travels with each key (sort_values.cuh).
template <class Bits, int kBlock, int kItems, class Value>
struct RadixTile {
  static constexpr bool kPairs = kCarriesValues<Value>;
  static constexpr int kWarps = kBlock / 32;
  static constexpr int kWarpItems = 32 * kItems;
  static constexpr int kTile = kBlock * kItems;
  static_assert(kBlock % 32 == 0 && kBlock >= int(kRadix), "a thread per digit");

  struct Shared {
    // A warp's count of each digit; then the count of that digit in the tile's earlier warps.
    unsigned warp_digits[kWarps][kRadix];
    unsigned tile_counts[kRadix];        // the tile's count of each digit (onesweep)
    unsigned digit_start[kRadix];        // the tile's keys of smaller digits
    std::uint64_t scatter_base[kRadix];  // digit d's output index minus digit_start[d]
    unsigned scan_totals[kRadixWarps];
    union {
      Bits keys[kTile];
      Value values[kPairs ? kTile : 1];
    } stage;                             // the tile in digit order
    unsigned char staged_digits[kTile];  // the digit of each staged key
  };

  Bits key[kItems];
  unsigned rank[kItems];  // among equal digits of the warp; then the place in the tile

  __device__ __forceinline__ static unsigned slot(int item) {
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    return warp * kWarpItems + item * 32 + lane;
  }
  __device__ __forceinline__ static bool in_tile(int item, unsigned valid) {
    return valid == unsigned(kTile) || slot(item) < valid;
  }

  // Loads the `valid` keys of the tile at `tile_base`.
  __device__ __forceinline__ void load(const RadixPassArgs<Bits>& a, std::size_t tile_base,
                                       unsigned valid) {
#pragma unroll
    for (int i = 0; i < kItems; ++i)
      key[i] = in_tile(i, valid) ? a.keys_in[tile_base + slot(i)] : Bits{0};
  }

  // Zeroes the digit counters. Every thread calls it.
  __device__ __forceinline__ static void clear(Shared& sh) {
    unsigned* flat = &sh.warp_digits[0][0];
    for (unsigned k = threadIdx.x; k < kWarps * kRadix; k += kBlock) flat[k] = 0;
    for (unsigned k = threadIdx.x; k < kRadix; k += kBlock) sh.tile_counts[k] = 0;
    __syncthreads();
  }

  // The tile's count of each digit ahead of the ranking, for a look-back to publish early (the
  // tiles after this one wait on it); returns digit d's count in thread d. Every thread calls it.
  __device__ __forceinline__ unsigned count_digits(Shared& sh, const DigitOf<Bits>& digit_of,
                                                   unsigned valid) {
#pragma unroll
    for (int i = 0; i < kItems; ++i)
      if (in_tile(i, valid)) atomicAdd(&sh.tile_counts[digit_of(key[i])], 1u);
    __syncthreads();
    return threadIdx.x < kRadix ? sh.tile_counts[threadIdx.x] : 0u;
  }

  // Ranks the loaded keys within their warp; returns, in thread d < kRadix, the tile's count of
  // digit d, with each warp's counts turned into the counts of the warps before it. The leader's
  // atomicAdd returns the count before its peers without a load-then-store round trip, so the
  // items' updates pipeline; __syncwarp orders one item's updates before the next item's.
  __device__ __forceinline__ unsigned rank_in_warps(Shared& sh, const DigitOf<Bits>& digit_of,
                                                    unsigned valid) {
    const unsigned lane = threadIdx.x % 32;
    const unsigned lanes_below = (1u << lane) - 1;
    unsigned* counts = sh.warp_digits[threadIdx.x / 32];
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const unsigned d = in_tile(i, valid) ? digit_of(key[i]) : kNoDigit;
      const unsigned peers = __match_any_sync(kFullMask, d);
      const unsigned leader = __ffs(peers) - 1;
      unsigned before = 0;
      if (lane == leader && d != kNoDigit) before = atomicAdd(&counts[d], __popc(peers));
      rank[i] = __shfl_sync(kFullMask, before, leader) + __popc(peers & lanes_below);
      __syncwarp();
    }
    __syncthreads();
    unsigned total = 0;
    if (threadIdx.x < kRadix)
      for (int w = 0; w < kWarps; ++w) {
        const unsigned c = sh.warp_digits[w][threadIdx.x];
        sh.warp_digits[w][threadIdx.x] = total;
        total += c;
      }
    return total;
  }

  // Where each digit starts in the tile's digit order, from `count` (thread d: digit d's);
  // returns digit d's start in thread d. Every thread calls it.
  __device__ __forceinline__ unsigned digit_starts(Shared& sh, unsigned count) {
    const unsigned start = exclusive_scan_over_digits(count, sh.scan_totals);
    if (threadIdx.x < kRadix) sh.digit_start[threadIdx.x] = start;
    return start;
  }

  // Puts the keys in digit order in shared memory: a key's place is its digit's start, the
  // digit's keys in earlier warps, and its rank. Every thread calls it.
  __device__ __forceinline__ void stage_keys(Shared& sh, const DigitOf<Bits>& digit_of,
                                             unsigned valid) {
    __syncthreads();
    const unsigned warp = threadIdx.x / 32;
#pragma unroll
    for (int i = 0; i < kItems; ++i)
      if (in_tile(i, valid)) {
        const unsigned d = digit_of(key[i]);
        rank[i] += sh.digit_start[d] + sh.warp_digits[warp][d];
        sh.stage.keys[rank[i]] = key[i];
        sh.staged_digits[rank[i]] = static_cast<unsigned char>(d);
      }
  }

  // Moves the staged keys (and the values) to their output indices: scatter_base[d] + place.
  // Every thread calls it, once sh.scatter_base holds every digit's base. The values are loaded
  // first, their latency hidden behind the keys' moves.
  __device__ __forceinline__ void scatter(Shared& sh, const RadixPassArgs<Bits>& a,
                                          std::size_t tile_base, unsigned valid) {
    [[maybe_unused]] Value value[kItems];
    if constexpr (kPairs) {
      const auto* values_in = static_cast<const Value*>(a.values_in);
#pragma unroll
      for (int i = 0; i < kItems; ++i)
        value[i] = in_tile(i, valid) ? values_in[tile_base + slot(i)] : Value{0};
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const unsigned place = j * kBlock + threadIdx.x;
      if (place < valid)
        a.keys_out[sh.scatter_base[sh.staged_digits[place]] + place] = sh.stage.keys[place];
    }
    if constexpr (kPairs) scatter_values(sh, a, valid, value);
  }

  __device__ __forceinline__ void scatter_values(Shared& sh, const RadixPassArgs<Bits>& a,
                                                 unsigned valid, const Value (&value)[kItems]) {
    auto* values_out = static_cast<Value*>(a.values_out);
    __syncthreads();  // the keys are out of the stage
#pragma unroll
    for (int i = 0; i < kItems; ++i)
      if (in_tile(i, valid)) sh.stage.values[rank[i]] = value[i];
    __syncthreads();
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const unsigned place = j * kBlock + threadIdx.x;
      if (place < valid)
        values_out[sh.scatter_base[sh.staged_digits[place]] + place] = sh.stage.values[place];
    }
  }
};

// Keys of a tile at `tile_base`: kTile, or what is left of n.
template <int kTile>
__device__ __forceinline__ unsigned tile_keys(std::size_t tile_base, std::size_t n) {
  return n - tile_base < std::size_t(kTile) ? unsigned(n - tile_base) : unsigned(kTile);
}

// --- radix/reduce-then-scan ------------------------------------------------------------------

// The tiles of `tile` keys each block's chunk takes when n keys are shared over the grid's blocks
// (a call whose count is on the device; the host plans the others').
__device__ __forceinline__ std::size_t chunk_tiles(std::size_t n, std::size_t tile) {
  const std::size_t tiles = (n + tile - 1) / tile;
  return (tiles + gridDim.x - 1) / gridDim.x;
}

// Upsweep: block b counts the digits of keys [b * chunk, (b + 1) * chunk) (chunk a whole number
// of tiles, so 16-byte aligned; at most 2^31 keys, so the counters cannot wrap) into
// counts[d * gridDim.x + b]. With the count on the device, chunk is chunk_tiles of the count's
// tiles of `tile` keys.
template <class Bits, int kBlock, int kUnroll>
__global__ void __launch_bounds__(kBlock)
    radix_upsweep(const Bits* __restrict__ keys, std::size_t n, std::size_t chunk,
                  DigitOf<Bits> digit_of, std::uint64_t* __restrict__ counts, const unsigned* count,
                  std::size_t tile) {
  __shared__ unsigned histogram[kRadix];
  for (unsigned d = threadIdx.x; d < kRadix; d += kBlock) histogram[d] = 0;
  __syncthreads();
  n = keys_of_call(n, count);
  if (count) chunk = chunk_tiles(n, tile) * tile;
  const std::size_t begin =
      std::size_t(blockIdx.x) * chunk < n ? std::size_t(blockIdx.x) * chunk : n;
  const std::size_t end = begin + chunk < n ? begin + chunk : n;
  for_each_key<Bits, kBlock, kUnroll>(keys + begin, end - begin, threadIdx.x, kBlock,
                                      [&](Bits k) { atomicAdd(&histogram[digit_of(k)], 1u); });
  __syncthreads();
  for (unsigned d = threadIdx.x; d < kRadix; d += kBlock)
    counts[std::size_t(d) * gridDim.x + blockIdx.x] = histogram[d];
}

// The scan of the counts: block d turns row d of the digit-major table (digit d's count in each
// of the upsweep's `blocks` blocks) into its inclusive prefix sums, in place. A thread loads
// kItems counts at once, each load coalesced across the block, then the block scans them a step
// each, carrying the total. The rows are independent, so 256 blocks share what one block would
// scan alone (the downsweep adds the digits' starts from the rows' totals).
template <int kBlock, int kItems>
__global__ void __launch_bounds__(kBlock)
    radix_scan_counts(std::uint64_t* counts, unsigned blocks) {
  __shared__ std::uint64_t warp_totals[kBlock / 32];
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  std::uint64_t* row = counts + std::size_t(blockIdx.x) * blocks;
  std::uint64_t carry = 0;
  for (unsigned base = 0; base < blocks; base += kBlock * kItems) {
    std::uint64_t c[kItems];
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const unsigned i = base + j * kBlock + threadIdx.x;
      c[j] = i < blocks ? row[i] : 0;
    }
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const std::uint64_t incl = warp_inclusive_scan<std::uint64_t, SumOp>(c[j]);
      if (lane == 31) warp_totals[warp] = incl;
      __syncthreads();
      std::uint64_t before = carry, total = 0;
      for (unsigned w = 0; w < kBlock / 32; ++w) {
        if (w < warp) before += warp_totals[w];
        total += warp_totals[w];
      }
      const unsigned i = base + j * kBlock + threadIdx.x;
      if (i < blocks) row[i] = before + incl;
      carry += total;
      __syncthreads();  // warp_totals is rewritten by the next step
    }
  }
}

// Downsweep: block b sorts its chunk's tiles in order, each digit's keys following the block's
// earlier ones: `offsets` are the upsweep's counts, each digit's row scanned (radix_scan_counts).
// kMinBlocks: blocks per SM the registers must allow (__launch_bounds__); `Value`: what travels
// with each key (sort_values.cuh).
template <class Bits, int kBlock, int kItems, int kMinBlocks, class Value>
__global__ void __launch_bounds__(kBlock, kMinBlocks)
    radix_downsweep(RadixPassArgs<Bits> a, const std::uint64_t* __restrict__ offsets,
                    std::size_t tiles_per_block) {
  using Tile = RadixTile<Bits, kBlock, kItems, Value>;
  __shared__ typename Tile::Shared sh;
  __shared__ std::uint64_t next[kRadix];  // digit d's next output index
  __shared__ std::uint64_t digit_totals[kRadixWarps];
  // Row d of `offsets` holds digit d's inclusive prefix sums over the blocks: this block's keys
  // of digit d follow the earlier blocks' and every key of a smaller digit.
  std::uint64_t earlier_blocks = 0, digit_total = 0;
  if (threadIdx.x < kRadix) {
    const std::uint64_t* row = offsets + std::size_t(threadIdx.x) * gridDim.x;
    earlier_blocks = blockIdx.x > 0 ? row[blockIdx.x - 1] : 0;
    digit_total = row[gridDim.x - 1];
  }
  const std::uint64_t digit_start = exclusive_scan_over_digits(digit_total, digit_totals);
  if (threadIdx.x < kRadix) next[threadIdx.x] = digit_start + earlier_blocks;
  a.n = keys_of_call(a.n, a.count);
  if (a.count) tiles_per_block = chunk_tiles(a.n, Tile::kTile);
  const std::size_t tiles = (a.n + Tile::kTile - 1) / Tile::kTile;
  const std::size_t first = std::size_t(blockIdx.x) * tiles_per_block;
  const std::size_t last = first + tiles_per_block < tiles ? first + tiles_per_block : tiles;
  for (std::size_t t = first; t < last; ++t) {
    __syncthreads();  // the previous tile is out of shared memory
    const std::size_t tile_base = t * Tile::kTile;
    const unsigned valid = tile_keys<Tile::kTile>(tile_base, a.n);
    Tile tile;
    tile.load(a, tile_base, valid);
    Tile::clear(sh);
    const unsigned count = tile.rank_in_warps(sh, a.digit_of, valid);
    const unsigned start = tile.digit_starts(sh, count);
    tile.stage_keys(sh, a.digit_of, valid);
    if (threadIdx.x < kRadix) {  // thread d alone reads and writes next[d]
      sh.scatter_base[threadIdx.x] = next[threadIdx.x] - start;
      next[threadIdx.x] += count;
    }
    tile.scatter(sh, a, tile_base, valid);
  }
}

}  // namespace xr::cuda::kernels
