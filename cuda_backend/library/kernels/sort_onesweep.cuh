// radix/onesweep: LSD radix sorting with one read of the keys per digit pass (Adinets &
// Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs", 2022).
//   1. onesweep_histograms: one read of the keys counts the digits of every pass at once;
//   2. onesweep_bins: per pass, the exclusive scan of its 256 counts (each digit's first index);
//   3. onesweep_pass, once per pass: a block per tile counts its digits per warp and publishes
//      the tile's counts at once (the tiles after it wait on them), turns the warps' counts into
//      each warp's first place per digit, ranks its keys there (one shared-memory atomic per
//      group of equal digits in a warp), stages them in digit order, and only then finds where
//      each digit of its tile goes, with a decoupled look-back over the tiles before it (one
//      thread per digit), by which time most of those have published their prefixes; then
//      writes the staged keys (and values) out, consecutive threads in runs of one digit.
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

// The histogram kernel's shared counters: kCopies of each (pass, digit), lane l adding into copy
// l % kCopies, a copy's counters kCopies words apart. With 32 copies every lane of a warp hits
// its own bank, so a warp's atomic is one shared-memory round however its digits fall (one
// shared copy costs about 3.5 rounds on random digits, the birthday bound over 32 banks); 64-bit
// keys' 8 passes fit 16 copies (two lanes a bank, at most two rounds).
template <class Bits>
struct HistogramLayout {
  static constexpr unsigned kPasses = sizeof(Bits);  // 8-bit digits of a whole key
  static constexpr unsigned kCopies = kPasses <= 4 ? 32 : 16;
  static constexpr std::size_t kSharedBytes = std::size_t(kPasses) * kRadix * kCopies * 4;
};

// Every pass's digit counts, added into histograms[pass * kRadix + d] (zeroed before). A block
// counts at most 2^31 keys (the grid is planned so), so its shared counters cannot wrap. The
// passes' loop is unrolled to the key's most passes, their shifts and masks held in registers.
// Dynamic shared memory: HistogramLayout<Bits>::kSharedBytes.
template <class Bits, int kBlock, int kUnroll>
__global__ void __launch_bounds__(kBlock)
    onesweep_histograms(const Bits* __restrict__ keys, std::size_t n, KeyCodec<Bits> codec,
                        BitRange bits, unsigned passes, std::uint64_t* __restrict__ histograms,
                        const unsigned* count) {
  using L = HistogramLayout<Bits>;
  n = keys_of_call(n, count);
  extern __shared__ unsigned counts[];  // [pass * kRadix + digit][copy]
  for (unsigned k = threadIdx.x; k < passes * kRadix * L::kCopies; k += kBlock) counts[k] = 0;
  unsigned shift[L::kPasses], mask[L::kPasses];
#pragma unroll
  for (unsigned p = 0; p < L::kPasses; ++p) {
    const unsigned at = bits.begin + 8 * p < bits.end ? bits.begin + 8 * p : bits.end - 1;
    shift[p] = at;
    mask[p] = (1u << (bits.end - at < 8 ? bits.end - at : 8)) - 1;
  }
  unsigned* mine = counts + threadIdx.x % L::kCopies;
  __syncthreads();
  for_each_key<Bits, kBlock, kUnroll>(
      keys, n, std::size_t(blockIdx.x) * kBlock + threadIdx.x, std::size_t(gridDim.x) * kBlock,
      [&](Bits k) {
        const Bits s = codec.sort_bits(k);
#pragma unroll
        for (unsigned p = 0; p < L::kPasses; ++p)
          if (p < passes)
            atomicAdd(&mine[(p * kRadix + ((s >> shift[p]) & mask[p])) * L::kCopies], 1u);
      });
  __syncthreads();
  // A warp per (pass, digit): its lanes read the copies, one add over the warp.
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (unsigned k = warp; k < passes * kRadix; k += kBlock / 32) {
    const unsigned c =
        __reduce_add_sync(kFullMask, lane < L::kCopies ? counts[k * L::kCopies + lane] : 0u);
    if (lane == 0 && c) atomicAdd(reinterpret_cast<unsigned long long*>(&histograms[k]), c);
  }
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

// The lanes of the warp whose digit (8 bits) equals this lane's: per bit, the ballot of the lanes
// that have it set, complemented in the lanes that have it clear, ANDed over the bits.
// match.any.sync is slower over 8 bits (as CUB finds). Written in PTX so that the vote's predicate
// also guards the complement: four instructions a bit, where the compiler's own rendering of the
// select spends seven (it extracts the bit twice).
__device__ __forceinline__ unsigned match_digit(unsigned d) {
  unsigned peers = kFullMask;
#pragma unroll
  for (int b = 0; b < 8; ++b) {
    unsigned agree;
    asm("{\n\t"
        ".reg .pred set;\n\t"
        "setp.ne.u32 set, %1, 0;\n\t"
        "vote.sync.ballot.b32 %0, set, 0xffffffff;\n\t"
        "@!set not.b32 %0, %0;\n\t"
        "}"
        : "=r"(agree)
        : "r"(d & (1u << b)));
    peers &= agree;
  }
  return peers;
}

// A pass's tile: kBlock threads x kItems keys, warp-striped as RadixTile's (lane l of warp w,
// item i: the key at w * 32 * kItems + 32 * i + l). Slots past the tile's last key take the
// largest digit, kPad: the ranking is stable and they come after every key in slot order, so
// they rank last, at the places from `valid` on, which are never written out. `Value`: what
// travels with each key (sort_values.cuh), staged beside the keys.
template <class Bits, int kBlock, int kItems, class Value>
struct OnesweepTile {
  static constexpr bool kPairs = kCarriesValues<Value>;
  static constexpr int kWarps = kBlock / 32;
  static constexpr int kWarpItems = 32 * kItems;
  static constexpr int kTile = kBlock * kItems;
  static constexpr unsigned kPad = kRadix - 1;
  static_assert(kBlock % 32 == 0 && kBlock >= int(kRadix), "a thread per digit");

  // Dynamic shared memory (more than 48 KiB for the larger tiles).
  struct Shared {
    // A warp's count of each digit; then the place in the tile of the warp's first key of it.
    unsigned warp_digits[kWarps][kRadix];
    // Where the tile's keys (values) of digit d go, less the digit's first place in the tile: a
    // key's address is one multiply-add from its place.
    Bits* key_to[kRadix];
    Value* value_to[kPairs ? kRadix : 1];
    unsigned scan_totals[kRadixWarps];
    unsigned drawn;                    // the tile's index in the portion
    Bits keys[kTile];                  // the tile in digit order
    Value values[kPairs ? kTile : 1];  // the values in the keys' order
  };

  __device__ __forceinline__ static unsigned slot(int item) {
    return threadIdx.x / 32 * kWarpItems + item * 32 + threadIdx.x % 32;
  }
  // kFull: the tile holds kTile keys, and no slot needs a check.
  template <bool kFull>
  __device__ __forceinline__ static bool in_tile(int item, unsigned valid) {
    return kFull || slot(item) < valid;
  }

  // This thread's items of `in` from the tile's first key; slots past the tile read as T{}.
  template <bool kFull, class T>
  __device__ __forceinline__ static void load(const T* __restrict__ in, std::size_t tile_base,
                                              unsigned valid, T (&items)[kItems]) {
#pragma unroll
    for (int i = 0; i < kItems; ++i)
      items[i] = in_tile<kFull>(i, valid) ? in[tile_base + slot(i)] : T{};
  }

  // Each key's digit, four to a register; slots past the tile take kPad.
  static constexpr int kDigitWords = (kItems + 3) / 4;
  template <bool kFull>
  __device__ __forceinline__ static void pack_digits(const Bits (&key)[kItems],
                                                     const DigitOf<Bits>& digit_of, unsigned valid,
                                                     unsigned (&digits)[kDigitWords]) {
#pragma unroll
    for (int i = 0; i < kItems; ++i)
      digits[i / 4] |= (in_tile<kFull>(i, valid) ? digit_of(key[i]) : kPad) << (8 * (i % 4));
  }

  __device__ __forceinline__ static unsigned unpack(const unsigned (&digits)[kDigitWords], int i) {
    return (digits[i / 4] >> (8 * (i % 4))) & 0xffu;
  }

  // The warp's count of each digit of its items, into its own row of warp_digits (zeroed).
  __device__ __forceinline__ static void count_digits(Shared& sh,
                                                      const unsigned (&digits)[kDigitWords]) {
    unsigned* counts = sh.warp_digits[threadIdx.x / 32];
#pragma unroll
    for (int i = 0; i < kItems; ++i) atomicAdd(&counts[unpack(digits, i)], 1u);
  }

  // Thread d < kRadix, after the counts: each warp's count of digit d becomes the count of d in
  // the warps before it; returns the tile's count of d (the padding included; 0 past kRadix).
  __device__ __forceinline__ static unsigned warp_offsets(Shared& sh) {
    const unsigned d = threadIdx.x;
    unsigned total = 0;
    if (d < kRadix)
#pragma unroll
      for (int w = 0; w < kWarps; ++w) {
        const unsigned c = sh.warp_digits[w][d];
        sh.warp_digits[w][d] = total;
        total += c;
      }
    return total;
  }

  // Thread d: every warp's offset of digit d moves on by the digit's first place in the tile.
  __device__ __forceinline__ static void add_start(Shared& sh, unsigned start) {
    const unsigned d = threadIdx.x;
    if (d < kRadix)
#pragma unroll
      for (int w = 0; w < kWarps; ++w) sh.warp_digits[w][d] += start;
  }

  // Each item's place in the tile, stable in slot order: the lanes of equal digits find each
  // other; the highest of them moves the warp's place of that digit on by their number and hands
  // the place before to the others. The shuffle waits on the atomic's result, so one item's
  // update lands before the next item's.
  __device__ __forceinline__ static void rank(Shared& sh, const unsigned (&digits)[kDigitWords],
                                              unsigned (&ranks)[kItems]) {
    const unsigned lane = threadIdx.x % 32;
    unsigned* counts = sh.warp_digits[threadIdx.x / 32];
    const unsigned lanes_le = (2u << lane) - 1;
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const unsigned di = unpack(digits, i);
      const unsigned peers = match_digit(di);
      const unsigned leader = 31 - __clz(peers);
      const unsigned below = __popc(peers & lanes_le);
      unsigned place = 0;
      if (lane == leader) place = atomicAdd(&counts[di], __popc(peers));
      ranks[i] = __shfl_sync(kFullMask, place, leader) + below - 1;
    }
  }

  // The staged keys (and values) out, consecutive threads in runs of one digit.
  template <bool kFull>
  __device__ __forceinline__ static void scatter(const Shared& sh, const DigitOf<Bits>& digit_of,
                                                 unsigned valid) {
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const unsigned place = j * kBlock + threadIdx.x;
      if (kFull || place < valid) {
        const Bits k = sh.keys[place];
        const unsigned d = digit_of(k);
        sh.key_to[d][place] = k;
        if constexpr (kPairs) sh.value_to[d][place] = sh.values[place];
      }
    }
  }
};

// One tile per block, the tile drawn from the counter.
// kMinBlocks: blocks per SM the registers must allow (__launch_bounds__); kWindow: predecessors
// a look-back round trip reads; `Value`: what travels with each key (sort_values.cuh). Dynamic
// shared memory: sizeof(OnesweepTile<...>::Shared).
template <class Bits, int kBlock, int kItems, int kMinBlocks, int kWindow, class Value>
__global__ void __launch_bounds__(kBlock, kMinBlocks) onesweep_pass(OnesweepArgs<Bits> a) {
  using Tile = OnesweepTile<Bits, kBlock, kItems, Value>;
  constexpr bool kPairs = Tile::kPairs;
  extern __shared__ __align__(16) unsigned char raw[];
  auto& sh = *reinterpret_cast<typename Tile::Shared*>(raw);
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (unsigned d = lane; d < kRadix; d += 32) sh.warp_digits[warp][d] = 0;  // the warp's own row
  if (threadIdx.x == 0) sh.drawn = atomicAdd(a.tile_counter, 1u);
  if (a.pass.count) {  // one portion: the count's tiles, the blocks past them idle
    a.pass.n = keys_of_call(a.pass.n, a.pass.count);
    a.tiles = unsigned((a.pass.n + Tile::kTile - 1) / Tile::kTile);
  }
  __syncthreads();
  const unsigned tile_index = sh.drawn;
  if (tile_index >= a.tiles) return;
  const std::size_t tile_base = (a.first_tile + tile_index) * Tile::kTile;
  const unsigned valid = tile_keys<Tile::kTile>(tile_base, a.pass.n);
  const DigitOf<Bits>& digit_of = a.pass.digit_of;

  const bool full = valid == unsigned(Tile::kTile);
  Bits key[kItems];
  // Each key's digit, computed once, four to a register.
  unsigned digits[Tile::kDigitWords] = {};
  if (full) {
    Tile::template load<true>(a.pass.keys_in, tile_base, valid, key);
    Tile::template pack_digits<true>(key, digit_of, valid, digits);
  } else {
    Tile::template load<false>(a.pass.keys_in, tile_base, valid, key);
    Tile::template pack_digits<false>(key, digit_of, valid, digits);
  }

  // The warps' counts, summed per digit into the tile's: published before the ranking.
  Tile::count_digits(sh, digits);
  __syncthreads();
  const unsigned d = threadIdx.x;
  const unsigned total = Tile::warp_offsets(sh);
  const unsigned count = d == Tile::kPad ? total - (Tile::kTile - valid) : total;
  if (d < kRadix) publish_count(a, tile_index, count);
  const unsigned start = exclusive_scan_over_digits(total, sh.scan_totals);
  Tile::add_start(sh, start);
  __syncthreads();

  unsigned rank[kItems];
  Tile::rank(sh, digits, rank);
#pragma unroll
  for (int i = 0; i < kItems; ++i) sh.keys[rank[i]] = key[i];

  [[maybe_unused]] Value value[kItems];
  if constexpr (kPairs) {
    const auto* values_in = static_cast<const Value*>(a.pass.values_in);
    if (full)
      Tile::template load<true>(values_in, tile_base, valid, value);
    else
      Tile::template load<false>(values_in, tile_base, valid, value);
  }
  // Last, so that the tiles before have had the ranking's time to publish their prefixes.
  if (d < kRadix) {
    const std::uint64_t first = digit_base<kWindow>(a, tile_index, count) - start;
    sh.key_to[d] = a.pass.keys_out + first;
    if constexpr (kPairs) sh.value_to[d] = static_cast<Value*>(a.pass.values_out) + first;
  }
  if constexpr (kPairs)
#pragma unroll
    for (int i = 0; i < kItems; ++i) sh.values[rank[i]] = value[i];
  __syncthreads();
  if (full)
    Tile::template scatter<true>(sh, digit_of, valid);
  else
    Tile::template scatter<false>(sh, digit_of, valid);
}

// Below one tile (onesweep_one_tile in core's plan): every digit pass of at most 8.
template <class Bits>
struct OneTileArgs {
  const Bits* keys_in;
  Bits* keys_out;
  const void* values_in;  // pairs only: the kernel's `Value`
  void* values_out;
  unsigned n;  // 1..the tile; or, with `count`, the most the launch takes
  unsigned passes;
  DigitOf<Bits> digit_of[sizeof(Bits)];  // each pass's digit
  const unsigned* count;                 // the keys on the device, or null
};

// One block sorts the n <= kTile keys through every digit pass in shared memory: each pass ranks
// the keys as a tile of onesweep_pass does (stable in slot order, the slots past n last with the
// largest digit), stages them in digit order and reads them back in slot order for the next;
// the last writes them out. One launch where the general path takes six or more; one block, so
// the registers need not allow two. Dynamic shared memory: sizeof(OnesweepTile<...>::Shared).
template <class Bits, int kBlock, int kItems, class Value>
__global__ void __launch_bounds__(kBlock, 1) onesweep_one_tile(OneTileArgs<Bits> a) {
  using Tile = OnesweepTile<Bits, kBlock, kItems, Value>;
  constexpr bool kPairs = Tile::kPairs;
  extern __shared__ __align__(16) unsigned char raw[];
  auto& sh = *reinterpret_cast<typename Tile::Shared*>(raw);
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  a.n = unsigned(keys_of_call(a.n, a.count));
  Bits key[kItems];
  [[maybe_unused]] Value value[kItems];
  Tile::template load<false>(a.keys_in, 0, a.n, key);
  if constexpr (kPairs)
    Tile::template load<false>(static_cast<const Value*>(a.values_in), 0, a.n, value);
#pragma unroll 1
  for (unsigned p = 0; p < a.passes; ++p) {
    unsigned digits[Tile::kDigitWords] = {};
    Tile::template pack_digits<false>(key, a.digit_of[p], a.n, digits);
    for (unsigned d = lane; d < kRadix; d += 32) sh.warp_digits[warp][d] = 0;
    __syncwarp();
    Tile::count_digits(sh, digits);
    __syncthreads();
    const unsigned start = exclusive_scan_over_digits(Tile::warp_offsets(sh), sh.scan_totals);
    Tile::add_start(sh, start);
    __syncthreads();
    unsigned rank[kItems];
    Tile::rank(sh, digits, rank);
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      sh.keys[rank[i]] = key[i];
      if constexpr (kPairs) sh.values[rank[i]] = value[i];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      key[i] = sh.keys[Tile::slot(i)];
      if constexpr (kPairs) value[i] = sh.values[Tile::slot(i)];
    }
    __syncthreads();  // every read done before the next pass stages over them
  }
#pragma unroll
  for (int i = 0; i < kItems; ++i)
    if (Tile::slot(i) < a.n) {
      a.keys_out[Tile::slot(i)] = key[i];
      if constexpr (kPairs) static_cast<Value*>(a.values_out)[Tile::slot(i)] = value[i];
    }
}

}  // namespace xr::cuda::kernels
