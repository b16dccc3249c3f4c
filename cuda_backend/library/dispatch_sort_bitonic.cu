// bitonic/smem: core's network (xreduce/sort_plan.hpp's bitonic_schedule: the padded items, the
// tile sort, the merge stages) as launches, then the gather (kernels/sort_bitonic.cuh).
//   temp: at.items the items, `padded` of them: n padded to a power of two, at least one tile;
//         8 bytes each for keys up to 32 bits, 16 for 64-bit keys
//   tiles: the items' tiles; passes: the stages past the tile (each launches one global step per
//   stride >= tile, then one shared-memory launch for the strides below)
#include <algorithm>
#include <bit>

#include "kernels/sort_bitonic.cuh"
#include "sort_dispatch.hpp"

namespace xr::cuda::detail {
namespace {

// The shared-memory tile: 32 KiB of items per block whatever the key width, 512 threads. A
// starting point, not yet measured.
struct BitonicShape {
  int threads;
  int per_thread;
  constexpr std::size_t tile() const { return std::size_t(threads) * per_thread; }
};
constexpr BitonicShape kPackedShape{512, 8};  // 8-byte items: keys up to 32 bits
constexpr BitonicShape kWideShape{512, 4};    // 16-byte items: 64-bit keys
template <class Bits>
constexpr BitonicShape kShape = sizeof(Bits) <= 4 ? kPackedShape : kWideShape;
// Threads of a global merge step and of the gather, one pair or key each; a conventional size, not
// tuned.
constexpr int kStepBlock = 256;

template <class Bits>
using Items = kernels::BitonicItem<Bits>*;

template <class Bits>
kernels::RankOf<Bits> rank_of(const SortDesc& p) {
  const unsigned width = p.bits.end - p.bits.begin;
  return {kernels::KeyCodec<Bits>::make(kernels::key_kind(p.dtype), p.order), p.bits.begin,
          width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1};
}

// The network's steps past the tile sort over `padded` items: a global compare-exchange launch
// per stride >= tile, a shared-memory launch for each stage's strides below it.
template <class Bits>
void merge_stages(const sort::Plan& plan, std::size_t padded, Items<Bits> items,
                  cudaStream_t stream) {
  using Item = kernels::BitonicItem<Bits>;
  constexpr BitonicShape s = kShape<Bits>;
  const std::size_t pairs = padded / 2;
  const unsigned step_grid = to_grid(ceil_div(pairs, kStepBlock));
  const unsigned tile_grid = to_grid(padded / plan.tile);
  for_each_bitonic_step(padded, plan.tile, [&](const BitonicStep& step) {
    if (step.kind == BitonicStepKind::merge_global)
      kernels::bitonic_merge_global<Item>
          <<<step_grid, kStepBlock, 0, stream>>>(items, pairs, step.stage, step.stride);
    else if (step.kind == BitonicStepKind::merge_tiles)
      kernels::bitonic_merge_tiles<Item, s.threads, s.per_thread>
          <<<tile_grid, s.threads, 0, stream>>>(items, step.stage);
    else
      return;  // the tile sort, launched with the keys
    XR_CUDA_CHECK_LAUNCH();
  });
}

// The keys (and the values, as `values` says) in the sorted items' order.
template <class Bits>
void gather(const sort::Call& call, SortValues values, const sort::Buffers& bufs, Items<Bits> items,
            cudaStream_t stream) {
  const std::size_t n = call.n;
  const auto* in = static_cast<const Bits*>(bufs.keys_in);
  auto* out = static_cast<Bits*>(bufs.keys_out);
  const unsigned grid = to_grid(ceil_div(n, kStepBlock));
  kernels::with_value_type(values, [&]<class Value>() {
    kernels::bitonic_gather<Bits, Value>
        <<<grid, kStepBlock, 0, stream>>>(items, in, out, static_cast<const Value*>(bufs.values_in),
                                          static_cast<Value*>(bufs.values_out), n, call.count);
  });
  XR_CUDA_CHECK_LAUNCH();
}

}  // namespace

Policy policy_sort_bitonic(const DeviceLimits&) {
  return {kPackedShape.threads, kPackedShape.per_thread, 8, 0,
          "32 KiB of items per block in shared memory (4096 x 8 B; 64-bit keys 2048 x 16 B); "
          "H200 2^28 u32 keys 163 ms (lib/cub 6.12); not swept"};
}

void plan_sort_bitonic(sort::Plan& plan, const DeviceLimits&) {
  const SortDesc& p = plan.desc;
  const bool packed = size_of(p.dtype) <= 4;
  const BitonicShape shape = packed ? kPackedShape : kWideShape;
  plan.block = static_cast<unsigned>(shape.threads);
  plan.tile = shape.tile();
  const BitonicSchedule network = bitonic_schedule(p.count, plan.tile);
  plan.tiles = network.tiles;
  plan.grid = to_grid(plan.tiles);
  plan.passes = network.stages;
  plan.at.items = 0;
  plan.padded = network.padded;
  plan.temp_bytes = network.padded * (packed ? sizeof(std::uint64_t) : sizeof(kernels::WideItem));
  plan.note = "items padded to " + std::to_string(network.padded);
}

// The call's keys padded (the plan's padded items with the count on the device, whose keys past
// it are padding), then the network and the gather.
void enqueue_sort_bitonic(const sort::Plan& plan, const sort::Call& call, const sort::Buffers& bufs,
                          cudaStream_t stream) {
  const std::size_t padded = call.count ? plan.padded : std::max(std::bit_ceil(call.n), plan.tile);
  kernels::with_key_bits(plan.desc.dtype, [&]<class Bits>() {
    constexpr BitonicShape s = kShape<Bits>;
    auto items = reinterpret_cast<Items<Bits>>(static_cast<char*>(bufs.temp) + plan.at.items);
    kernels::bitonic_sort_tiles<Bits, s.threads, s.per_thread>
        <<<to_grid(padded / plan.tile), s.threads, 0, stream>>>(
            static_cast<const Bits*>(bufs.keys_in), call.n, rank_of<Bits>(plan.desc), items,
            call.count);
    XR_CUDA_CHECK_LAUNCH();
    merge_stages<Bits>(plan, padded, items, stream);
    gather<Bits>(call, plan.desc.values, bufs, items, stream);
  });
}

}  // namespace xr::cuda::detail
