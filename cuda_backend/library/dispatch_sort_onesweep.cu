// radix/onesweep: the histograms, the bins and one launch per digit pass and portion, the passes
// and portions core's plan (xreduce/sort_plan.hpp), the kernels kernels/sort_onesweep.cuh; keys
// within one tile, one launch of one block (the plan's onesweep_one_tile).
//   temp: at.alternate_keys, at.alternate_values (both only where a pass must write them),
//         at.digit_counts every pass's histogram (kRadix 64-bit counts), at.bins every pass's
//         bins (two sets of kRadix 64-bit indices: the portions of a pass hand them on by turns),
//         at.tile_counter the tile counter, then from 256 bytes past it the look-back status
//         (kRadix 32-bit words per tile of the largest portion; a portion holds at most
//         2^30 - 1 keys)
//   wave: the histogram kernel's resident blocks, the most of its grid (a call's n sizes it).
//   Zeroed in every enqueue by cudaMemsetAsync: the histograms once, the counter and status
//   before each launch of a pass.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kernels/sort_onesweep.cuh"
#include "kernels/sort_passes.cuh"
#include "sort_dispatch.hpp"

namespace xr::cuda::detail {
namespace {

// A pass's tile, threads x items keys, and the blocks per SM the registers must allow (2 blocks
// of 384 allow 80 registers a thread, 3 allow 56). Each shape for keys and u32 values: the
// fastest of a sweep over threads x items and blocks per SM, 2^28 keys uniform over all bit
// patterns, cold, beside lib/cub in the same runs; each `evidence` holds the chosen shape's time
// and the runner-up's, docs/results/H200/tuning-notes.md the whole sweeps (ballot and PTX
// rankings, keys and pairs). u64 values, which double the shared values[kTile], take the largest
// tile of 384 threads that keeps two blocks an SM (half its opt-in shared memory each) without
// spills, not swept (their times beside lib/cub: docs/results/H200/sort/values-u64). 16-bit keys
// take the 32-bit keys' shapes.
struct OnesweepShape {
  int threads;
  int items;
  int min_blocks;
  constexpr std::size_t tile() const { return std::size_t(threads) * items; }
};
// A shape and the measurement that chose it (apart: a shape is a template argument).
struct OnesweepTuning {
  OnesweepShape shape;
  const char* evidence;
};
constexpr OnesweepTuning k32Keys{{512, 20, 2},
                                 "H200, 2^28 u32 keys: 512x20 at 2 blocks/SM 5.10 ms, 384x22 at 3 "
                                 "5.18 (lib/cub 6.35)"};
constexpr OnesweepTuning k32Pairs{{384, 26, 2},
                                  "H200, 2^28 u32 pairs: 384x26 6.99 ms, 512x18 7.19 (lib/cub "
                                  "7.41-7.44)"};
constexpr OnesweepTuning k64Keys{{384, 18, 2},
                                 "H200, 2^28 u64 keys: 384x18 14.19 ms (lib/cub 16.48); before "
                                 "the PTX ranking 384x18 16.26, 384x15 17.67"};
constexpr OnesweepTuning k64Pairs{{384, 15, 2},
                                  "H200, 2^28 u64 pairs: 384x15 20.23 ms (lib/cub 20.26); before "
                                  "the PTX ranking 384x18 20.53 but spills, 384x15 20.58"};
constexpr OnesweepTuning k32Pairs64{
    {384, 19, 2},
    "H200, 2^28 u32 / f32 keys + u64 values: 384x19 9.93 / 9.76 ms (lib/cub 10.08 / 9.98); not "
    "swept: the largest tile of 384 threads with u64 values that fits two blocks an SM without "
    "spills (ptxas sm_90: 80 registers, 0 spills; 384x20 spills), 103976 B shared"};
constexpr OnesweepTuning k64Pairs64{
    {384, 16, 2},
    "H200, 2^28 u64 keys + u64 values: 384x16 24.45 ms (lib/cub 24.79); not swept: the largest "
    "tile of 384 threads with u64 values that fits two blocks an SM (384x17 needs 120872 B of "
    "shared memory; ptxas sm_90: 80 registers, 0 spills), 114728 B shared"};

// The tuning entry of `Bits` keys with `Value` (kernels/sort_values.cuh).
template <class Bits, class Value>
constexpr const OnesweepTuning& kTuning =
    !kernels::kCarriesValues<Value>        ? (sizeof(Bits) == 8 ? k64Keys : k32Keys)
    : std::is_same_v<Value, std::uint64_t> ? (sizeof(Bits) == 8 ? k64Pairs64 : k32Pairs64)
                                           : (sizeof(Bits) == 8 ? k64Pairs : k32Pairs);
template <class Bits, class Value, class F>
void with_shape(F&& f) {
  f.template operator()<kTuning<Bits, Value>.shape>();
}
// Pause between polls of a status word not yet published: with or without it 2^28 keys sort
// alike (docs/results/H200/tuning-notes.md); kept for the many waiters of larger grids.
constexpr unsigned kSpinNs = 32;
// The histogram kernel: 1024 threads (its shared counters, HistogramLayout, take 128 KiB: a
// block per SM), 4 vectors of 16 bytes in flight each, one resident wave: faster under ncu than
// one shared copy per block of 256 threads and than CUB's histogram pass
// (docs/results/H200/tuning-notes.md).
constexpr int kHistogramBlock = 1024;
constexpr int kHistogramUnroll = 4;
// A histogram block counts at most 2^31 keys: its 32-bit shared counters cannot wrap.
constexpr std::size_t kMaxBlockKeys = std::size_t{1} << 31;
// The counter's slot before the status words.
constexpr std::size_t kCounterBytes = 256;

template <class Kernel>
void allow_shared(Kernel kernel, std::size_t bytes) {
  XR_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(bytes)));
}

const OnesweepTuning& tuning_of(DType t, SortValues values) {
  const OnesweepTuning* tuning = nullptr;
  kernels::with_key_bits(t, [&]<class Bits>() {
    kernels::with_value_type(values, [&]<class Value>() { tuning = &kTuning<Bits, Value>; });
  });
  return *tuning;
}

// The histogram's blocks resident at once.
std::size_t histogram_wave(const SortDesc& p, const DeviceLimits& dev) {
  int per_sm = 0;
  kernels::with_key_bits(p.dtype, [&]<class Bits>() {
    const auto kernel = kernels::onesweep_histograms<Bits, kHistogramBlock, kHistogramUnroll>;
    constexpr std::size_t bytes = kernels::HistogramLayout<Bits>::kSharedBytes;
    allow_shared(kernel, bytes);
    XR_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kHistogramBlock, bytes));
  });
  return std::size_t(std::max(per_sm, 1)) * std::max(dev.sm_count, 1);
}

// The histogram's grid for n keys: a wave at most, no block past 2^31 keys.
unsigned histogram_grid(std::size_t n, std::size_t wave) {
  const std::size_t useful = ceil_div(n, std::size_t(kHistogramBlock) * 16);
  return to_grid(std::max(std::min(wave, useful), ceil_div(n, kMaxBlockKeys)));
}

struct Regions {
  std::uint64_t* histograms;
  std::uint64_t* bins;
  unsigned* counter;  // the status words follow kCounterBytes after it
};

Regions regions(const sort::Plan& plan, void* temp) {
  char* t = static_cast<char*>(temp);
  return {reinterpret_cast<std::uint64_t*>(t + plan.at.digit_counts),
          reinterpret_cast<std::uint64_t*>(t + plan.at.bins),
          reinterpret_cast<unsigned*>(t + plan.at.tile_counter)};
}

// The launches of one pass: core's portions of the call's keys in order, each with its counter
// and status zeroed, each reading its bins from the set the portion before wrote. With the count
// on the device, one portion of the plan's tiles, the blocks past the count's returning.
template <class Bits, class Value>
void run_pass(const sort::Plan& plan, const kernels::RadixPassArgs<Bits>& pass_args,
              const Regions& r, unsigned pass, cudaStream_t stream) {
  const sort::Portions portions =
      onesweep_portion_split(pass_args.n, plan.tile, kernels::DigitStatus::kMaxPortionKeys);
  with_shape<Bits, Value>([&]<OnesweepShape s>() {
    using Tile = kernels::OnesweepTile<Bits, s.threads, s.items, Value>;
    const auto kernel =
        kernels::onesweep_pass<Bits, s.threads, s.items, s.min_blocks, kSortLookBackWindow, Value>;
    constexpr std::size_t shared = sizeof(typename Tile::Shared);
    allow_shared(kernel, shared);
    std::uint64_t* bins = r.bins + std::size_t(pass) * 2 * kernels::kRadix;
    auto* status = reinterpret_cast<unsigned*>(reinterpret_cast<char*>(r.counter) + kCounterBytes);
    for (std::size_t i = 0; i < portions.count(); ++i) {
      const sort::Portion portion = portions.at(i);
      const auto tiles = static_cast<unsigned>(portion.tiles);
      XR_CUDA_CHECK(cudaMemsetAsync(
          r.counter, 0, kCounterBytes + std::size_t(tiles) * kernels::kRadix * sizeof(unsigned),
          stream));
      const kernels::OnesweepArgs<Bits> a{pass_args,
                                          status,
                                          r.counter,
                                          bins + portion.bins_in * kernels::kRadix,
                                          bins + portion.bins_out * kernels::kRadix,
                                          portion.first_tile,
                                          tiles,
                                          kSpinNs};
      kernel<<<tiles, s.threads, shared, stream>>>(a);
      XR_CUDA_CHECK_LAUNCH();
    }
  });
}

// n within one tile: one block, every pass in its shared memory (core's onesweep_one_tile).
template <class Bits, class Value>
void run_one_tile(const sort::Plan& plan, const sort::Call& call,
                  const kernels::PassBuffers<Bits>& b, const kernels::KeyCodec<Bits>& codec,
                  cudaStream_t stream) {
  with_shape<Bits, Value>([&]<OnesweepShape s>() {
    using Tile = kernels::OnesweepTile<Bits, s.threads, s.items, Value>;
    const auto kernel = kernels::onesweep_one_tile<Bits, s.threads, s.items, Value>;
    constexpr std::size_t shared = sizeof(typename Tile::Shared);
    allow_shared(kernel, shared);
    kernels::OneTileArgs<Bits> a{
        b.keys_in,   b.keys_out, b.values_in, b.values_out, static_cast<unsigned>(call.n),
        plan.passes, {},         call.count};
    for (unsigned pass = 0; pass < plan.passes; ++pass)
      a.digit_of[pass] = kernels::digit_of(codec, plan.digit_passes[pass]);
    kernel<<<1, s.threads, shared, stream>>>(a);
    XR_CUDA_CHECK_LAUNCH();
  });
}

// One read of the keys for every pass's digit counts, then each pass's bins.
template <class Bits>
void count_digits(const sort::Plan& plan, const sort::Call& call, const Bits* keys,
                  const kernels::KeyCodec<Bits>& codec, const Regions& r, cudaStream_t stream) {
  const SortDesc& p = plan.desc;
  allow_shared(kernels::onesweep_histograms<Bits, kHistogramBlock, kHistogramUnroll>,
               kernels::HistogramLayout<Bits>::kSharedBytes);
  XR_CUDA_CHECK(cudaMemsetAsync(
      r.histograms, 0, std::size_t(plan.passes) * kernels::kRadix * sizeof(std::uint64_t), stream));
  kernels::onesweep_histograms<Bits, kHistogramBlock, kHistogramUnroll>
      <<<histogram_grid(call.n, plan.wave), kHistogramBlock,
         kernels::HistogramLayout<Bits>::kSharedBytes, stream>>>(
          keys, call.n, codec, p.bits, plan.passes, r.histograms, call.count);
  XR_CUDA_CHECK_LAUNCH();
  kernels::onesweep_bins<<<plan.passes, kernels::kRadix, 0, stream>>>(r.histograms, r.bins);
  XR_CUDA_CHECK_LAUNCH();
}

}  // namespace

Policy policy_sort_onesweep(const DeviceLimits&) {
  return {512, 20, 2, 0,
          "one tile per block, 32-bit keys 512 x 20 (u32 values 384 x 26, u64 values 384 x 19), "
          "64-bit keys 384 x 18 (u32 values 384 x 15, u64 values 384 x 16), 2 blocks per SM, "
          "digits matched by ballots, look-back window 8, polls "
          "paused 32 ns; H200 2^28 u32 keys 5.10 ms, pairs 6.99 (lib/cub 6.35 / 7.42); histograms "
          "1024 x 4 vectors of 16 bytes into 32 private copies, one resident wave"};
}

void plan_sort_onesweep(sort::Plan& plan, const DeviceLimits& dev) {
  const SortDesc& p = plan.desc;
  plan.digit_passes = radix_digit_passes(p.bits);
  plan.passes = static_cast<unsigned>(plan.digit_passes.size());
  const OnesweepTuning& tuning = tuning_of(p.dtype, p.values);
  const OnesweepShape shape = tuning.shape;
  plan.tuning = "tile " + std::to_string(shape.threads) + " x " + std::to_string(shape.items) +
                ", " + std::to_string(shape.min_blocks) + " blocks/SM: " + tuning.evidence;
  plan.block = static_cast<unsigned>(shape.threads);
  plan.tile = shape.tile();
  plan.tiles = ceil_div(p.count, plan.tile);
  const sort::Portions portions =
      onesweep_portion_split(p.count, plan.tile, kernels::DigitStatus::kMaxPortionKeys);
  const std::size_t portion_tiles = portions.at(0).tiles;  // the largest
  plan.grid = to_grid(portion_tiles);
  plan.wave = histogram_wave(p, dev);
  const bool alternate = needs_alternate(plan.digit_passes);
  const std::size_t key_bytes = alternate ? p.count * size_of(p.dtype) : 0;
  const std::size_t values_bytes = alternate ? p.count * value_bytes(p.values) : 0;
  const std::size_t per_pass = std::size_t(kernels::kRadix) * sizeof(std::uint64_t);
  plan.at.alternate_keys = 0;
  plan.at.alternate_values = align256(key_bytes);
  plan.at.digit_counts = plan.at.alternate_values + align256(values_bytes);
  plan.at.bins = plan.at.digit_counts + align256(plan.passes * per_pass);
  plan.at.tile_counter = plan.at.bins + align256(2 * plan.passes * per_pass);
  plan.temp_bytes =
      plan.at.tile_counter + kCounterBytes + portion_tiles * kernels::kRadix * sizeof(unsigned);
  plan.note = onesweep_one_tile(p.count, plan.tile)
                  ? "within one tile: one block sorts it through every pass in shared memory"
                  : std::to_string(portions.count()) +
                        (portions.count() == 1 ? " portion" : " portions") +
                        "; counts and look-back status zeroed by cudaMemsetAsync in every enqueue";
}

std::size_t onesweep_counted_max_keys(const sort::Plan& plan) {
  return kernels::DigitStatus::kMaxPortionKeys / plan.tile * plan.tile;
}

void enqueue_sort_onesweep(const sort::Plan& plan, const sort::Call& call,
                           const sort::Buffers& bufs, cudaStream_t stream) {
  const SortDesc& p = plan.desc;
  kernels::with_key_bits(p.dtype, [&]<class Bits>() {
    const auto codec = kernels::KeyCodec<Bits>::make(kernels::key_kind(p.dtype), p.order);
    char* temp = static_cast<char*>(bufs.temp);
    const kernels::PassBuffers<Bits> buffers{static_cast<const Bits*>(bufs.keys_in),
                                             static_cast<Bits*>(bufs.keys_out),
                                             reinterpret_cast<Bits*>(temp + plan.at.alternate_keys),
                                             p.pairs() ? bufs.values_in : nullptr,
                                             p.pairs() ? bufs.values_out : nullptr,
                                             temp + plan.at.alternate_values};
    kernels::with_value_type(p.values, [&]<class Value>() {
      if (onesweep_one_tile(call.n, plan.tile)) {
        run_one_tile<Bits, Value>(plan, call, buffers, codec, stream);
        return;
      }
      const Regions r = regions(plan, bufs.temp);
      count_digits<Bits>(plan, call, buffers.keys_in, codec, r, stream);
      for (unsigned pass = 0; pass < plan.passes; ++pass) {
        auto args = kernels::pass_args(buffers, plan.digit_passes[pass], call.n, codec);
        args.count = call.count;
        run_pass<Bits, Value>(plan, args, r, pass, stream);
      }
    });
  });
}

}  // namespace xr::cuda::detail
