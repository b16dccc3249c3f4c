// radix/reduce-then-scan: core's plan (xreduce/sort_plan.hpp: the digit passes and their
// buffers, the blocks' chunks of tiles) as the three launches of each digit pass
// (kernels/sort_radix.cuh).
//   temp: at.alternate_keys, at.alternate_values (both only where a pass must write them: more
//         than one pass; values for pairs), at.digit_counts: kRadix per block, 64-bit, each digit's
//         row scanned in place
//   tiles_per_block: each block's chunk; grid: one resident wave of the downsweep at most, each
//   block a contiguous chunk of tiles (the upsweep's blocks count the same chunks)
#include <algorithm>

#include "kernels/sort_passes.cuh"
#include "sort_dispatch.hpp"

namespace xr::cuda::detail {
namespace {

// The downsweep's tile per key width, 256 threads x kItems keys, warp-striped: onesweep's (see
// dispatch_sort_onesweep.cu), at 3 blocks per SM (80 registers), where 4 spill. Onesweep's
// shape taken as it is, not swept for this kernel. u64 values keep it: ptxas sm_90 fits them in
// 80 registers without spills, and with 32-bit keys, whose stage then holds 8 bytes a key, the
// block's static shared memory is 48992 bytes, within the 48 KiB a kernel may declare.
struct RadixShape {
  int threads;
  int items;
  int min_blocks;  // blocks per SM the registers must allow
  constexpr std::size_t tile() const { return std::size_t(threads) * items; }
};
template <class Bits>
constexpr RadixShape kShape = sizeof(Bits) == 8 ? RadixShape{256, 12, 3} : RadixShape{256, 15, 3};
// Upsweep: 256 threads, 4 vectors of 16 bytes in flight each (fast/vectorized's reduce
// shape); the scan of the counts: a block of 256 threads a digit, 4 counts a thread in flight
// (a row of up to 1024 blocks in one step).
constexpr int kUpsweepBlock = 256;
constexpr int kUpsweepUnroll = 4;
constexpr int kCountsBlock = 256;
constexpr int kCountsItems = 4;
// A block's upsweep counts at most 2^31 keys: its 32-bit shared counters cannot wrap.
constexpr std::size_t kMaxBlockKeys = std::size_t{1} << 31;

std::size_t tile_of(DType t) {
  std::size_t tile = 0;
  kernels::with_key_bits(t, [&]<class Bits>() { tile = kShape<Bits>.tile(); });
  return tile;
}

// Blocks of the downsweep resident at once on the device.
unsigned downsweep_wave(const SortDesc& p, const DeviceLimits& dev) {
  int per_sm = 0;
  kernels::with_key_bits(p.dtype, [&]<class Bits>() {
    constexpr RadixShape s = kShape<Bits>;
    kernels::with_value_type(p.values, [&]<class Value>() {
      const auto kernel = kernels::radix_downsweep<Bits, s.threads, s.items, s.min_blocks, Value>;
      XR_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, s.threads, 0));
    });
  });
  return static_cast<unsigned>(std::max(per_sm, 1) * std::max(dev.sm_count, 1));
}

template <class Bits>
kernels::PassBuffers<Bits> pass_buffers(const sort::Plan& plan, const sort::Buffers& bufs) {
  char* temp = static_cast<char*>(bufs.temp);
  const bool pairs = plan.desc.pairs();
  return {static_cast<const Bits*>(bufs.keys_in),
          static_cast<Bits*>(bufs.keys_out),
          reinterpret_cast<Bits*>(temp + plan.at.alternate_keys),
          pairs ? bufs.values_in : nullptr,
          pairs ? bufs.values_out : nullptr,
          temp + plan.at.alternate_values};
}

// A pass over `chunks` (the call's; with the count on the device the plan's blocks, each
// block's share of the count's tiles found on the device), the downsweep moving `Value`s.
template <class Bits, class Value>
void run_pass(const sort::Plan& plan, const RadixChunks& chunks,
              const kernels::RadixPassArgs<Bits>& a, std::uint64_t* counts, cudaStream_t stream) {
  constexpr RadixShape s = kShape<Bits>;
  static_assert(s.tile() * sizeof(Bits) % 16 == 0, "chunks of whole tiles are 16-byte aligned");
  const std::size_t tiles_per_block = chunks.tiles_per_block;
  const unsigned grid = to_grid(chunks.blocks);
  kernels::radix_upsweep<Bits, kUpsweepBlock, kUpsweepUnroll><<<grid, kUpsweepBlock, 0, stream>>>(
      a.keys_in, a.n, tiles_per_block * plan.tile, a.digit_of, counts, a.count, plan.tile);
  XR_CUDA_CHECK_LAUNCH();
  kernels::radix_scan_counts<kCountsBlock, kCountsItems>
      <<<kernels::kRadix, kCountsBlock, 0, stream>>>(counts, grid);
  XR_CUDA_CHECK_LAUNCH();
  kernels::radix_downsweep<Bits, s.threads, s.items, s.min_blocks, Value>
      <<<grid, s.threads, 0, stream>>>(a, counts, tiles_per_block);
  XR_CUDA_CHECK_LAUNCH();
}

}  // namespace

Policy policy_sort_radix(const DeviceLimits&) {
  return {256, 15, 4, 0,
          "downsweep tiles 256 x 15 keys (64-bit keys 256 x 12), 3 blocks per SM, one resident "
          "wave; upsweep 256 x 4 vectors of 16 bytes; the counts' scan a block a digit; H200 u32 "
          "keys 0.114 ms at 1M, 11.68 ms at 2^28 (lib/cub 0.0802, 5.44: "
          "docs/results/H200/sort/rts-count-scan); the tile not swept"};
}

void plan_sort_radix(sort::Plan& plan, const DeviceLimits& dev) {
  const SortDesc& p = plan.desc;
  plan.digit_passes = radix_digit_passes(p.bits);
  plan.passes = static_cast<unsigned>(plan.digit_passes.size());
  plan.block = 256;
  plan.tile = tile_of(p.dtype);
  plan.wave = downsweep_wave(p, dev);
  const RadixChunks chunks = radix_chunks(p.count, plan.tile, plan.wave, kMaxBlockKeys);
  plan.tiles = chunks.tiles;
  plan.grid = to_grid(chunks.blocks);
  plan.tiles_per_block = chunks.tiles_per_block;
  const bool alternate = needs_alternate(plan.digit_passes);
  const std::size_t key_bytes = alternate ? p.count * size_of(p.dtype) : 0;
  const std::size_t values_bytes = alternate ? p.count * value_bytes(p.values) : 0;
  plan.at.alternate_keys = 0;
  plan.at.alternate_values = align256(key_bytes);
  plan.at.digit_counts = plan.at.alternate_values + align256(values_bytes);
  // Rows for any call up to the plan's keys, whose blocks may outnumber the plan's.
  const std::size_t rows = radix_chunks_most_blocks(p.count, plan.tile, plan.wave, kMaxBlockKeys);
  plan.temp_bytes =
      plan.at.digit_counts + std::size_t(kernels::kRadix) * rows * sizeof(std::uint64_t);
}

void enqueue_sort_radix(const sort::Plan& plan, const sort::Call& call, const sort::Buffers& bufs,
                        cudaStream_t stream) {
  const SortDesc& p = plan.desc;
  const RadixChunks chunks = call.count ? RadixChunks{plan.tiles, plan.tiles_per_block, plan.grid}
                                        : radix_chunks(call.n, plan.tile, plan.wave, kMaxBlockKeys);
  kernels::with_key_bits(p.dtype, [&]<class Bits>() {
    const auto codec = kernels::KeyCodec<Bits>::make(kernels::key_kind(p.dtype), p.order);
    auto* counts =
        reinterpret_cast<std::uint64_t*>(static_cast<char*>(bufs.temp) + plan.at.digit_counts);
    const kernels::PassBuffers<Bits> buffers = pass_buffers<Bits>(plan, bufs);
    kernels::with_value_type(p.values, [&]<class Value>() {
      for (const DigitPass& pass : plan.digit_passes) {
        auto args = kernels::pass_args(buffers, pass, call.n, codec);
        args.count = call.count;
        run_pass<Bits, Value>(plan, chunks, args, counts, stream);
      }
    });
  });
}

}  // namespace xr::cuda::detail
