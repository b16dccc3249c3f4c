// radix/onesweep: LSD radix sorting with one read of the keys per digit pass (Adinets &
// Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs", 2022).
//   1. onesweep_histograms: one read of the keys counts the digits of every pass at once;
//   2. onesweep_bins: per pass, the exclusive scan of its 256 counts (each digit's first index);
//   3. onesweep_pass, once per pass: a block per tile counts its digits and publishes the counts
//      at once (the tiles after it wait on them), ranks its keys and stages them in digit order
//      (RadixTile), and only then finds where each digit of its tile goes, with a decoupled
//      look-back over the tiles before it (one thread per digit), by which time most of those
//      have published their prefixes; then scatters.
// Look-back status: one 32-bit word per (tile, digit), the flag in the top two bits and the count
// below (CUB's layout for onesweep), so flag and count travel in one single-copy-atomic access
// and relaxed atomics suffice. A tile first publishes its count of the digit (kAggregate), then,
// once it knows its predecessors', the inclusive count (kPrefix); zero is "not yet". The words
// are zeroed (cudaMemsetAsync) before every launch, so nothing of an earlier pass or call is
// ever read. 30 bits bound a count, so a launch sorts a portion of at most 2^30 - 1 keys; a pass
// over more runs one launch per portion, the portion's last tile handing each digit's next index
// to the next portion (`bins_out`).
// Tiles come from an atomic counter, so a tile waits only on tiles whose blocks already run: no
// assumption about the order in which the hardware starts blocks, and no deadlock.
#pragma once

#include <cuda/atomic>

#include "kernels/sort_radix.cuh"

namespace xr::cuda::kernels {

struct DigitStatus {
  static constexpr unsigned kAggregate = 1u << 30;  // the tile's own count
  static constexpr unsigned kPrefix = 2u << 30;     // the count of the tile and every one before
  static constexpr unsigned kFlags = 3u << 30;
  static constexpr unsigned kCount = ~kFlags;
  static constexpr std::size_t kMaxPortionKeys = kCount;  // a portion's counts fit kCount

  __device__ __forceinline__ static ::cuda::atomic_ref<unsigned, ::cuda::thread_scope_device> ref(
      unsigned& word) {
    return ::cuda::atomic_ref<unsigned, ::cuda::thread_scope_device>(word);
  }
  __device__ __forceinline__ static void publish(unsigned& word, unsigned flag, unsigned count) {
    ref(word).store(flag | count, ::cuda::memory_order_relaxed);
  }
  __device__ __forceinline__ static unsigned observe(unsigned& word) {
    return ref(word).load(::cuda::memory_order_relaxed);
  }
};

// Every pass's digit counts, added into histograms[pass * kRadix + d] (zeroed before). A block
// counts at most 2^31 keys (the grid is planned so), so its shared counters cannot wrap. The
// passes' loop is unrolled to the key's most passes, their shifts and masks held in registers.
template <class Bits, int kBlock, int kUnroll>
__global__ void __launch_bounds__(kBlock)
    onesweep_histograms(const Bits* __restrict__ keys, std::size_t n, KeyCodec<Bits> codec,
                        BitRange bits, unsigned passes, std::uint64_t* __restrict__ histograms) {
  constexpr unsigned kPasses = sizeof(Bits);  // 8-bit digits of a whole key
  __shared__ unsigned counts[kPasses * kRadix];
  for (unsigned k = threadIdx.x; k < kPasses * kRadix; k += kBlock) counts[k] = 0;
  unsigned shift[kPasses], mask[kPasses];
#pragma unroll
  for (unsigned p = 0; p < kPasses; ++p) {
    const unsigned at = bits.begin + 8 * p < bits.end ? bits.begin + 8 * p : bits.end - 1;
    shift[p] = at;
    mask[p] = (1u << (bits.end - at < 8 ? bits.end - at : 8)) - 1;
  }
  __syncthreads();
  for_each_key<Bits, kBlock, kUnroll>(
      keys, n, std::size_t(blockIdx.x) * kBlock + threadIdx.x, std::size_t(gridDim.x) * kBlock,
      [&](Bits k) {
        const Bits s = codec.sort_bits(k);
#pragma unroll
        for (unsigned p = 0; p < kPasses; ++p)
          if (p < passes) atomicAdd(&counts[p * kRadix + ((s >> shift[p]) & mask[p])], 1u);
      });
  __syncthreads();
  for (unsigned k = threadIdx.x; k < passes * kRadix; k += kBlock)
    if (counts[k]) atomicAdd(reinterpret_cast<unsigned long long*>(&histograms[k]), counts[k]);
}

// Block p: bins[p * 2 * kRadix + d] = the keys of digits below d in pass p (the first portion's
// base of each digit). kRadix threads.
__global__ void __launch_bounds__(kRadix)
    onesweep_bins(const std::uint64_t* __restrict__ histograms, std::uint64_t* __restrict__ bins) {
  __shared__ std::uint64_t warp_totals[kRadixWarps];
  const std::uint64_t count = histograms[blockIdx.x * kRadix + threadIdx.x];
  const std::uint64_t start = exclusive_scan_over_digits(count, warp_totals);
  bins[std::size_t(blockIdx.x) * 2 * kRadix + threadIdx.x] = start;
}

// One launch of a pass: a portion of the keys' tiles, `tiles` of them from `first_tile`.
template <class Bits>
struct OnesweepArgs {
  RadixPassArgs<Bits> pass;
  unsigned* status;              // kRadix words per tile of the portion, zeroed
  unsigned* tile_counter;        // zeroed
  const std::uint64_t* bins_in;  // each digit's first output index for this portion
  std::uint64_t* bins_out;       // the same for the next portion
  std::size_t first_tile;
  unsigned tiles;
  unsigned spin_ns;  // pause between polls of a status not yet published
};

// Thread d of tile `tile` (> 0): the count of digit d in every earlier tile of the portion.
// Walks back from the nearest predecessor, adding aggregates, until a tile with its prefix. One
// round trip reads kWindow predecessors at once (independent loads, one latency): the walk is
// about (L2 latency x the rate tiles start at) tiles long, so its round trips are what costs.
template <int kWindow>
__device__ __forceinline__ unsigned look_back_digit(unsigned* status, unsigned tile, unsigned d,
                                                    unsigned spin_ns) {
  unsigned before = 0;
  long long next = static_cast<long long>(tile) - 1;  // the nearest tile not yet added
  for (;;) {
    unsigned seen[kWindow];
#pragma unroll
    for (int w = 0; w < kWindow; ++w)  // before tile 0: a prefix of nothing
      seen[w] = next - w >= 0
                    ? DigitStatus::observe(status[static_cast<std::size_t>(next - w) * kRadix + d])
                    : DigitStatus::kPrefix;
    bool found = false, waiting = false;
#pragma unroll
    for (int w = 0; w < kWindow; ++w) {
      if (found || waiting) continue;
      waiting = (seen[w] & DigitStatus::kFlags) == 0;  // its block runs: it publishes soon
      if (waiting) continue;
      before += seen[w] & DigitStatus::kCount;
      found = (seen[w] & DigitStatus::kPrefix) != 0;
      --next;
    }
    if (found) return before;
    if (waiting && spin_ns) __nanosleep(spin_ns);
  }
}

// Thread d's first part of a tile: publish its count of digit d, as early as it is known (the
// tiles after it wait on it); tile 0 has no predecessor, so its count is its prefix.
template <class Bits>
__device__ __forceinline__ void publish_count(const OnesweepArgs<Bits>& a, unsigned tile,
                                              unsigned count) {
  unsigned& word = a.status[static_cast<std::size_t>(tile) * kRadix + threadIdx.x];
  DigitStatus::publish(word, tile == 0 ? DigitStatus::kPrefix : DigitStatus::kAggregate, count);
}

// Thread d's second part: look back, publish the inclusive count; returns the index the tile's
// first key of digit d goes to.
template <int kWindow, class Bits>
__device__ __forceinline__ std::uint64_t digit_base(const OnesweepArgs<Bits>& a, unsigned tile,
                                                    unsigned count) {
  const unsigned d = threadIdx.x;
  unsigned before = 0;
  if (tile > 0) {
    before = look_back_digit<kWindow>(a.status, tile, d, a.spin_ns);
    DigitStatus::publish(a.status[static_cast<std::size_t>(tile) * kRadix + d],
                         DigitStatus::kPrefix, before + count);
  }
  if (tile + 1 == a.tiles) a.bins_out[d] = a.bins_in[d] + before + count;
  return a.bins_in[d] + before;
}

// One tile per block, the tile drawn from the counter.
// kMinBlocks: blocks per SM the registers must allow (__launch_bounds__); kWindow: predecessors
// a look-back round trip reads.
template <class Bits, int kBlock, int kItems, int kMinBlocks, int kWindow, bool kPairs>
__global__ void __launch_bounds__(kBlock, kMinBlocks) onesweep_pass(OnesweepArgs<Bits> a) {
  using Tile = RadixTile<Bits, kBlock, kItems, kPairs>;
  __shared__ typename Tile::Shared sh;
  __shared__ unsigned drawn;
  if (threadIdx.x == 0) drawn = atomicAdd(a.tile_counter, 1u);
  __syncthreads();
  const unsigned tile_index = drawn;
  const std::size_t tile_base = (a.first_tile + tile_index) * Tile::kTile;
  const unsigned valid = tile_keys<Tile::kTile>(tile_base, a.pass.n);
  Tile tile;
  tile.load(a.pass, tile_base, valid);
  Tile::clear(sh);
  const unsigned count = tile.count_digits(sh, a.pass.digit_of, valid);
  if (threadIdx.x < kRadix) publish_count(a, tile_index, count);
  tile.rank_in_warps(sh, a.pass.digit_of, valid);
  const unsigned start = tile.digit_starts(sh, count);
  tile.stage_keys(sh, a.pass.digit_of, valid);
  // Last, so that the tiles before have had the ranking's time to publish their prefixes.
  if (threadIdx.x < kRadix)
    sh.scatter_base[threadIdx.x] = digit_base<kWindow>(a, tile_index, count) - start;
  tile.scatter(sh, a.pass, tile_base, valid);
}

}  // namespace xr::cuda::kernels
