// radix/onesweep: the histograms, the bins and one launch per digit pass and portion
// (kernels/sort_onesweep.cuh).
//   temp: [offsets[0]] the alternate keys, [offsets[1]] the alternate values (both only where a
//         pass must write them), [offsets[2]] every pass's histogram (kRadix 64-bit counts),
//         [offsets[3]] every pass's bins (two sets of kRadix 64-bit indices: the portions of a
//         pass hand them on by turns), [offsets[4]] the tile counter, then from offsets[4] + 256
//         the look-back status (kRadix 32-bit words per tile of a portion)
//   counts[0]: tiles per portion (a portion holds at most 2^30 - 1 keys), counts[1]: blocks of
//   the histogram kernel. Zeroed in every enqueue by cudaMemsetAsync: the histograms once, the
//   counter and status before each launch of a pass.
#include <algorithm>

#include "kernels/sort_onesweep.cuh"
#include "sort_dispatch.hpp"

namespace xr::cuda::detail {
namespace {

// A pass's tile per key width, 256 threads x kItems keys, and the blocks per SM the registers
// must allow (at most 64 registers a thread). H200, 2^28 u32, ms keys / pairs, lib/cub 6.12 /
// 7.10 in the same runs: 256 x 15 at 4 blocks 8.38 / 10.25. CUB's SM90 shape, 384 x 20 at 2
// blocks, was no faster on an H100 in a layout since dropped (9.88 / 11.41 against 9.78 /
// 12.22). 64-bit keys 256 x 12, so the staged keys fit 48 KiB of static shared memory; not
// measured. Not swept further.
struct OnesweepShape {
  int threads;
  int items;
  int min_blocks;
  constexpr std::size_t tile() const { return std::size_t(threads) * items; }
};
template <class Bits>
constexpr OnesweepShape kShape = sizeof(Bits) == 8 ? OnesweepShape{256, 12, 4}
                                                   : OnesweepShape{256, 15, 4};
// Predecessors one look-back round trip reads per digit. H200, 2^28 u32 keys: 1 8.94 ms, 4 8.38,
// 8 8.39 (a walk is about L2 latency x tiles started per unit of time long).
constexpr int kLookBackWindow = 8;
// Pause between polls of a status word not yet published: 0 and 32 ns alike (H200, 2^28 u32,
// 9.81 / 9.80 ms at 384 x 20); kept for the many waiters of larger grids.
constexpr unsigned kSpinNs = 32;
// The histogram kernel: 256 threads, 4 vectors of 16 bytes in flight each, one resident wave.
constexpr int kHistogramBlock = 256;
constexpr int kHistogramUnroll = 4;
// A histogram block counts at most 2^31 keys: its 32-bit shared counters cannot wrap.
constexpr std::size_t kMaxBlockKeys = std::size_t{1} << 31;
// The counter's slot before the status words.
constexpr std::size_t kCounterBytes = 256;

std::size_t tile_of(DType t) {
  std::size_t tile = 0;
  kernels::with_key_bits(t, [&]<class Bits>() { tile = kShape<Bits>.tile(); });
  return tile;
}

unsigned histogram_grid(const SortProblem& p, const DeviceLimits& dev) {
  int per_sm = 0;
  kernels::with_key_bits(p.dtype, [&]<class Bits>() {
    XR_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, kernels::onesweep_histograms<Bits, kHistogramBlock, kHistogramUnroll>,
        kHistogramBlock, 0));
  });
  const std::size_t wave = std::size_t(std::max(per_sm, 1)) * std::max(dev.sm_count, 1);
  const std::size_t useful = ceil_div(p.n, std::size_t(kHistogramBlock) * 16);
  return to_grid(std::max(std::min(wave, useful), ceil_div(p.n, kMaxBlockKeys)));
}

struct Regions {
  std::uint64_t* histograms;
  std::uint64_t* bins;
  unsigned* counter;  // the status words follow kCounterBytes after it
};

Regions regions(const SortPlan& plan, void* temp) {
  char* t = static_cast<char*>(temp);
  return {reinterpret_cast<std::uint64_t*>(t + plan.offsets[2]),
          reinterpret_cast<std::uint64_t*>(t + plan.offsets[3]),
          reinterpret_cast<unsigned*>(t + plan.offsets[4])};
}

// The launches of one pass: a portion at a time, each with its counter and status zeroed, each
// reading its bins from the set the portion before wrote.
template <class Bits, bool kPairs>
void run_pass(const SortPlan& plan, const kernels::RadixPassArgs<Bits>& pass_args, const Regions& r,
              unsigned pass, cudaStream_t stream) {
  constexpr OnesweepShape s = kShape<Bits>;
  const std::size_t portion_tiles = plan.counts[0];
  std::uint64_t* bins = r.bins + std::size_t(pass) * 2 * kernels::kRadix;
  auto* status = reinterpret_cast<unsigned*>(reinterpret_cast<char*>(r.counter) + kCounterBytes);
  for (std::size_t first = 0, portion = 0; first < plan.tiles; first += portion_tiles, ++portion) {
    const auto tiles = static_cast<unsigned>(std::min(portion_tiles, plan.tiles - first));
    XR_CUDA_CHECK(cudaMemsetAsync(
        r.counter, 0, kCounterBytes + std::size_t(tiles) * kernels::kRadix * sizeof(unsigned),
        stream));
    const kernels::OnesweepArgs<Bits> a{pass_args,
                                        status,
                                        r.counter,
                                        bins + (portion % 2) * kernels::kRadix,
                                        bins + ((portion + 1) % 2) * kernels::kRadix,
                                        first,
                                        tiles,
                                        kSpinNs};
    kernels::onesweep_pass<Bits, s.threads, s.items, s.min_blocks, kLookBackWindow, kPairs>
        <<<tiles, s.threads, 0, stream>>>(a);
    XR_CUDA_CHECK_LAUNCH();
  }
}

// One read of the keys for every pass's digit counts, then each pass's bins.
template <class Bits>
void count_digits(const SortPlan& plan, const Bits* keys, const kernels::KeyCodec<Bits>& codec,
                  const Regions& r, cudaStream_t stream) {
  const SortProblem& p = plan.problem;
  XR_CUDA_CHECK(cudaMemsetAsync(
      r.histograms, 0, std::size_t(plan.passes) * kernels::kRadix * sizeof(std::uint64_t), stream));
  kernels::onesweep_histograms<Bits, kHistogramBlock, kHistogramUnroll>
      <<<static_cast<unsigned>(plan.counts[1]), kHistogramBlock, 0, stream>>>(
          keys, p.n, codec, p.bits, plan.passes, r.histograms);
  XR_CUDA_CHECK_LAUNCH();
  kernels::onesweep_bins<<<plan.passes, kernels::kRadix, 0, stream>>>(r.histograms, r.bins);
  XR_CUDA_CHECK_LAUNCH();
}

}  // namespace

Policy policy_sort_onesweep(const DeviceLimits&) {
  return {256, 15, 4, 0,
          "one tile per block, 256 x 15 keys (64-bit keys 256 x 12), 4 blocks per SM, look-back "
          "window 8, polls paused 32 ns; H200 2^28 u32 keys 8.38 ms (lib/cub 6.12); histograms "
          "256 x 4 vectors of 16 bytes, one resident wave, not measured"};
}

void plan_sort_onesweep(SortPlan& plan, const DeviceLimits& dev) {
  const SortProblem& p = plan.problem;
  plan.passes = radix_passes(p.bits, p.dtype);
  plan.block = 256;
  plan.tile = tile_of(p.dtype);
  plan.tiles = ceil_div(p.n, plan.tile);
  const std::size_t portion_tiles =
      std::min(plan.tiles, kernels::DigitStatus::kMaxPortionKeys / plan.tile);
  plan.grid = to_grid(portion_tiles);
  plan.counts = {portion_tiles, histogram_grid(p, dev)};
  const bool alternate = plan.passes > 1;
  const std::size_t key_bytes = alternate ? p.n * size_of(p.dtype) : 0;
  const std::size_t value_bytes = alternate && p.pairs ? p.n * sizeof(std::uint32_t) : 0;
  const std::size_t per_pass = std::size_t(kernels::kRadix) * sizeof(std::uint64_t);
  const std::size_t histograms_at = align256(key_bytes) + align256(value_bytes);
  const std::size_t bins_at = histograms_at + align256(plan.passes * per_pass);
  const std::size_t counter_at = bins_at + align256(2 * plan.passes * per_pass);
  plan.offsets = {0, align256(key_bytes), histograms_at, bins_at, counter_at};
  plan.temp_bytes = counter_at + kCounterBytes + portion_tiles * kernels::kRadix * sizeof(unsigned);
  const std::size_t portions = ceil_div(plan.tiles, portion_tiles);
  plan.note = std::to_string(portions) + (portions == 1 ? " portion" : " portions") +
              "; counts and look-back status zeroed by cudaMemsetAsync in every enqueue";
}

void enqueue_sort_onesweep(const SortPlan& plan, const SortBuffers& bufs, cudaStream_t stream) {
  const SortProblem& p = plan.problem;
  kernels::with_key_bits(p.dtype, [&]<class Bits>() {
    const auto codec = kernels::KeyCodec<Bits>::make(kernels::key_kind(p.dtype), p.order);
    char* temp = static_cast<char*>(bufs.temp);
    const kernels::PassBuffers<Bits> buffers{
        static_cast<const Bits*>(bufs.keys_in),
        static_cast<Bits*>(bufs.keys_out),
        reinterpret_cast<Bits*>(temp + plan.offsets[0]),
        p.pairs ? bufs.values_in : nullptr,
        p.pairs ? bufs.values_out : nullptr,
        reinterpret_cast<std::uint32_t*>(temp + plan.offsets[1])};
    const Regions r = regions(plan, bufs.temp);
    count_digits<Bits>(plan, buffers.keys_in, codec, r, stream);
    for (unsigned pass = 0; pass < plan.passes; ++pass) {
      const auto args = kernels::radix_pass_args(buffers, pass, plan.passes, p.n,
                                                 kernels::digit_of_pass(codec, p.bits, pass));
      if (p.pairs)
        run_pass<Bits, true>(plan, args, r, pass, stream);
      else
        run_pass<Bits, false>(plan, args, r, pass, stream);
    }
  });
}

}  // namespace xr::cuda::detail
