// bitonic/smem: Batcher's bitonic sorting network (Batcher, "Sorting networks and their
// applications", 1968) over items of (the key's bits in the sort's range, its input position),
// compared lexicographically. The position makes every item distinct, so the network, which is
// not stable by itself, yields the stable order; the sorted items then gather the keys (and
// values) from the input. The items are padded to a power of two, at least one tile, with the
// largest rank and positions from n up, so padding sorts last.
// Stage k (sorted runs of k from runs of k/2) compares i with i ^ j for j = k/2 .. 1, ascending
// where i & k is 0. A tile sorts itself through every stage up to its size in shared memory;
// past it, each step of stride j >= tile is one global launch, and the steps of stride < tile
// (the stage's tail) are one shared-memory launch.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/sort_keys.cuh"
#include "kernels/sort_values.cuh"

namespace xr::cuda::kernels {

// An item of a key wider than 32 bits.
struct WideItem {
  std::uint64_t rank;
  std::uint32_t index;
};

// Keys of up to 32 bits pack rank and position into one 64-bit word: rank << 32 | position.
template <class Bits>
using BitonicItem = std::conditional_t<sizeof(Bits) <= 4, std::uint64_t, WideItem>;

__device__ __forceinline__ std::uint64_t make_item(std::uint64_t rank, std::uint32_t index,
                                                   std::uint64_t) {
  return rank << 32 | index;
}
__device__ __forceinline__ WideItem make_item(std::uint64_t rank, std::uint32_t index, WideItem) {
  return {rank, index};
}
__device__ __forceinline__ std::uint32_t index_of(std::uint64_t item) {
  return static_cast<std::uint32_t>(item);
}
__device__ __forceinline__ std::uint32_t index_of(const WideItem& item) {
  return item.index;
}
__device__ __forceinline__ bool item_less(std::uint64_t a, std::uint64_t b) {
  return a < b;
}
__device__ __forceinline__ bool item_less(const WideItem& a, const WideItem& b) {
  return a.rank < b.rank || (a.rank == b.rank && a.index < b.index);
}

// The rank of a key: its sort bits in [shift, shift + width), shifted down.
template <class Bits>
struct RankOf {
  KeyCodec<Bits> codec;
  unsigned shift;
  std::uint64_t mask;  // the range's width of ones: also the padding's rank

  __device__ __forceinline__ std::uint64_t operator()(Bits key) const {
    return (static_cast<std::uint64_t>(codec.sort_bits(key)) >> shift) & mask;
  }
};

// Orders a (at the lower index) and b for a run sorted `ascending`.
template <class Item>
__device__ __forceinline__ void order_pair(Item& a, Item& b, bool ascending) {
  if (item_less(b, a) == ascending) {
    const Item t = a;
    a = b;
    b = t;
  }
}

// One step (stage k, stride j < kTile) over a tile in shared memory whose first item is item
// `tile_base` of the whole sequence. Pair q compares i = 2q - q % j with i + j.
template <class Item, int kThreads, int kTile>
__device__ __forceinline__ void tile_step(Item* tile, std::size_t tile_base, std::size_t k,
                                          unsigned j) {
  for (unsigned q = threadIdx.x; q < kTile / 2; q += kThreads) {
    const unsigned i = 2 * q - (q & (j - 1));
    order_pair(tile[i], tile[i + j], ((tile_base + i) & k) == 0);
  }
}

// Builds the items of one tile and sorts it through the stages k = 2 .. kTile: tiles then hold
// runs of kTile, ascending and descending by turns (what stage 2 * kTile merges).
template <class Bits, int kThreads, int kPerThread>
__global__ void __launch_bounds__(kThreads)
    bitonic_sort_tiles(const Bits* __restrict__ keys, std::size_t n, RankOf<Bits> rank_of,
                       BitonicItem<Bits>* __restrict__ items, const unsigned* count) {
  using Item = BitonicItem<Bits>;
  n = keys_of_call(n, count);
  constexpr int kTile = kThreads * kPerThread;
  __shared__ Item tile[kTile];
  const std::size_t base = std::size_t(blockIdx.x) * kTile;
#pragma unroll
  for (int r = 0; r < kPerThread; ++r) {
    const unsigned local = r * kThreads + threadIdx.x;
    const std::size_t g = base + local;
    const std::uint64_t rank = g < n ? rank_of(keys[g]) : rank_of.mask;
    tile[local] = make_item(rank, static_cast<std::uint32_t>(g), Item{});
  }
  for (std::size_t k = 2; k <= std::size_t(kTile); k *= 2)
    for (unsigned j = unsigned(k / 2); j > 0; j /= 2) {
      __syncthreads();
      tile_step<Item, kThreads, kTile>(tile, base, k, j);
    }
  __syncthreads();
#pragma unroll
  for (int r = 0; r < kPerThread; ++r)
    items[base + r * kThreads + threadIdx.x] = tile[r * kThreads + threadIdx.x];
}

// The tail of stage k (> kTile): strides kTile/2 .. 1, each tile in shared memory.
template <class Item, int kThreads, int kPerThread>
__global__ void __launch_bounds__(kThreads)
    bitonic_merge_tiles(Item* __restrict__ items, std::size_t k) {
  constexpr int kTile = kThreads * kPerThread;
  __shared__ Item tile[kTile];
  const std::size_t base = std::size_t(blockIdx.x) * kTile;
#pragma unroll
  for (int r = 0; r < kPerThread; ++r)
    tile[r * kThreads + threadIdx.x] = items[base + r * kThreads + threadIdx.x];
  for (unsigned j = kTile / 2; j > 0; j /= 2) {
    __syncthreads();
    tile_step<Item, kThreads, kTile>(tile, base, k, j);
  }
  __syncthreads();
#pragma unroll
  for (int r = 0; r < kPerThread; ++r)
    items[base + r * kThreads + threadIdx.x] = tile[r * kThreads + threadIdx.x];
}

// One step of stage k with stride j >= kTile over all `pairs` pairs of the padded items.
template <class Item>
__global__ void bitonic_merge_global(Item* __restrict__ items, std::size_t pairs, std::size_t k,
                                     std::size_t j) {
  const std::size_t q = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (q >= pairs) return;
  const std::size_t i = 2 * q - (q & (j - 1));
  const Item a = items[i], b = items[i + j];
  if (item_less(b, a) == ((i & k) == 0)) {  // out of the run's order: swap
    items[i] = b;
    items[i + j] = a;
  }
}

// Output i takes the key (and value) at the input position of the i-th sorted item. `Value`:
// what travels with each key (sort_values.cuh); KeysOnly's arrays are null.
template <class Bits, class Value>
__global__ void bitonic_gather(const BitonicItem<Bits>* __restrict__ items,
                               const Bits* __restrict__ keys_in, Bits* __restrict__ keys_out,
                               const Value* __restrict__ values_in, Value* __restrict__ values_out,
                               std::size_t n, const unsigned* count) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= keys_of_call(n, count)) return;
  const std::uint32_t from = index_of(items[i]);
  keys_out[i] = keys_in[from];
  if constexpr (kCarriesValues<Value>) values_out[i] = values_in[from];
}

}  // namespace xr::cuda::kernels
