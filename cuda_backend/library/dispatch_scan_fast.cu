// fast/* scans: tile geometry, grids and scratch (kernels/scan_fast.cuh). A tile is a number of
// 16-byte vectors, so its element count depends on the dtype (4096 for 32-bit types).
//   fast/decoupled-lookback  scratch: [offsets[0]] the tile states (kernels::TileStates: one
//                                     64-bit word per tile for 4-byte accumulators, two for
//                                     8-byte ones), [offsets[1]] the 64-bit tile counter,
//                                     [offsets[2]] value slots, for a layout that has them;
//                            counts[0]: the status words' bytes (what an epoch wrap re-zeroes);
//                            grid: one block per tile. n <= kScanOneGroupMax: one block,
//                            reduce-then-scan's tile pass over all of n (one_block)
//   fast/reduce-then-scan    scratch: [offsets[0]] one partial (accumulator) per block of pass 1
#include "kernels/scan_fast.cuh"
#include "scan_dispatch.hpp"
#include "xreduce/shapes.hpp"

namespace xr::cuda::detail {
namespace {

// The look-back's tile: core's shared shape (xreduce/shapes.hpp holds the sweep that chose it,
// xreduce_cuda_scan_tune), 8 vectors of 16 bytes. Its pauses below are what pays: hundreds of
// warps polling the same status lines slow every L2 access (CUB's sm90 tuning pauses likewise).
// Drawing tiles from the counter rather than taking blockIdx.x costs little and buys
// independence from the order in which the hardware starts blocks. The runs behind both are in
// docs/results/H200/tuning-notes.md.
constexpr TileShape kLookBack = shared_shape(Primitive::scan, "fast/decoupled-lookback");
constexpr int kLookBackBlock = kLookBack.threads;
constexpr int kLookBackVecs = kLookBack.items / 4;
// 8-byte accumulators (i64, u64, f64): 128 x 16 vectors of two elements, core's shared 128 x 32
// in elements, with the halves tile states: the fastest point of a block x vectors sweep, and
// ahead of the split layout's best (the sweep is in docs/results/H200/tuning-notes.md; the
// policy's chosen_by carries the ratio to CUB).
constexpr int k8ByteLookBackBlock = 128;
constexpr int k8ByteLookBackVecs = 16;
constexpr int lookback_block(std::size_t acc_bytes) {
  return acc_bytes == 8 ? k8ByteLookBackBlock : kLookBackBlock;
}
constexpr int lookback_vecs(std::size_t acc_bytes) {
  return acc_bytes == 8 ? k8ByteLookBackVecs : kLookBackVecs;
}
constexpr unsigned kFirstWaitNs = 1200;
constexpr unsigned kSpinNs = 600;
// reduce-then-scan: each persistent block rescans a chunk of core's 256 x 4-vector tiles (its
// pass 3 streams its 3n bytes near the read peak; not swept).
constexpr TileShape kReduceThenScan = shared_shape(Primitive::scan, "fast/reduce-then-scan");
constexpr int kBlock = kReduceThenScan.threads;
constexpr int kVecs = kReduceThenScan.items / 4;
// Pass 1 of reduce-then-scan: the fast/vectorized reduce kernel's shape (256 x 4 in flight).
constexpr int kReduceUnroll = 4;
// Pass 2 of reduce-then-scan: one block over at most one resident wave of partials.
constexpr int kPartialsBlock = 1024;
// Epochs of the look-back's status words before the words are re-zeroed (epoch fits 30 bits,
// 0 is "never written").
constexpr std::uint64_t kEpochs = (std::uint64_t{1} << 30) - 1;

// Blocks of `kernel` that are resident at once on the device.
template <class Kernel>
unsigned wave(Kernel kernel, const DeviceLimits& dev) {
  int per_sm = 0;
  XR_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlock, 0));
  return static_cast<unsigned>(std::max(per_sm, 1) * std::max(dev.sm_count, 1));
}

// Elements of one tile of `t`. A tile is a number of 16-byte vectors whatever the dtype, so the
// bytes per tile and in flight per block stay those tuned on 32-bit types (but for the 8-byte
// look-back above; the f16 / bf16 look-back's ratio to CUB is core's shape-exception evidence).
std::size_t tile_elems(int block, int vecs, DType t) {
  return std::size_t(block) * vecs * (16 / size_of(t));
}

}  // namespace

Policy policy_scan_fast(ScanKernel k, const DeviceLimits&) {
  if (k == ScanKernel::fast_reduce_then_scan)
    return {kBlock, kVecs * 4, 16, 0,
            "grid one resident wave, each block a contiguous chunk; not swept"};
  return {kLookBackBlock, kLookBackVecs * 4, 16, 0,
          "one block per tile, pauses 1200/600 ns; H200 2^28: 1.05x CUB (xreduce_cuda_scan_tune); "
          "8-byte types 128 x 16 vectors, halves tile states, H200 2^28: 1.03x / 1.09x CUB "
          "(u64 / f64)"};
}

void plan_scan_fast(ScanPlan& plan, const DeviceLimits& dev, std::uint64_t one_group_max) {
  const bool look_back = plan.kernel == ScanKernel::fast_decoupled_lookback;
  const std::size_t acc_bytes = size_of(accumulator_of(plan.dtype));
  if (look_back && plan.n <= one_group_max) {  // reduce-then-scan's tile pass, one chunk
    plan.one_block = true;
    plan.block = kBlock;
    plan.tile = tile_elems(kBlock, kVecs, plan.dtype);
    plan.tiles = ceil_div(plan.n, plan.tile);
    plan.grid = 1;
    plan.counts = {plan.n};
    plan.offsets = {0};
    plan.scratch_bytes = 256;
    return;
  }
  plan.block = look_back ? lookback_block(acc_bytes) : kBlock;
  plan.tile = look_back
                  ? tile_elems(lookback_block(acc_bytes), lookback_vecs(acc_bytes), plan.dtype)
                  : tile_elems(kBlock, kVecs, plan.dtype);
  plan.tiles = ceil_div(plan.n, plan.tile);
  if (look_back) {
    plan.grid = to_grid(plan.tiles);
    // kernels::TileStates of the accumulator: status words, and value slots for split ones.
    using States4 = kernels::TileStates<float>;
    using States8 = kernels::TileStates<double>;
    const std::size_t per_status = acc_bytes == 8 ? States8::kStatusBytes : States4::kStatusBytes;
    const std::size_t per_value = acc_bytes == 8 ? States8::kValueBytes : States4::kValueBytes;
    const std::size_t status_bytes = plan.tiles * per_status;
    const std::size_t counter = align256(status_bytes);
    plan.offsets = {0, counter};
    plan.counts = {status_bytes};
    plan.scratch_bytes = counter + sizeof(unsigned long long);
    if (per_value) {
      plan.offsets.push_back(align256(plan.scratch_bytes));
      plan.scratch_bytes = plan.offsets[2] + plan.tiles * per_value;
    }
    return;
  }
  unsigned resident = 0;
  kernels::with_type_op(plan.dtype, plan.op, [&]<class T, class A, class O>() {
    resident = wave(kernels::scan_rts_tiles<T, O, kBlock, kVecs>, dev);
  });
  const std::size_t tiles_per_block = ceil_div(plan.tiles, resident);
  plan.counts = {tiles_per_block * plan.tile};  // chunk: elements per block
  plan.grid = to_grid(ceil_div(plan.n, plan.counts[0]));
  plan.offsets = {0};
  plan.scratch_bytes = align256(std::size_t(plan.grid) * acc_bytes);
}

void enqueue_scan_fast(const ScanPlan& plan, const ScanBuffers& bufs, ScanKind kind,
                       cudaStream_t stream) {
  const bool exclusive = kind == ScanKind::exclusive;
  kernels::with_type_op(plan.dtype, plan.op, [&]<class T, class A, class O>() {
    namespace k = kernels;
    const T* in = static_cast<const T*>(bufs.input);
    T* out = static_cast<T*>(bufs.output);
    char* scratch = static_cast<char*>(bufs.scratch);
    if (plan.kernel == ScanKernel::fast_decoupled_lookback && !plan.one_block) {
      void* states = scratch + plan.offsets[0];
      auto* counter = reinterpret_cast<unsigned long long*>(scratch + plan.offsets[1]);
      void* values = plan.offsets.size() > 2 ? scratch + plan.offsets[2] : nullptr;
      if (bufs.launch > 0 && bufs.launch % kEpochs == 0)  // the epochs wrap: forget old words
        XR_CUDA_CHECK(cudaMemsetAsync(states, 0, plan.counts[0], stream));
      const k::LookBackArgs args{states,
                                 values,
                                 counter,
                                 bufs.launch * plan.tiles,
                                 static_cast<unsigned>(1 + bufs.launch % kEpochs),
                                 kFirstWaitNs,
                                 kSpinNs,
                                 exclusive};
      k::scan_decoupled_lookback<T, O, lookback_block(sizeof(A)), lookback_vecs(sizeof(A))>
          <<<plan.grid, lookback_block(sizeof(A)), 0, stream>>>(in, out, plan.n, args);
      XR_CUDA_CHECK_LAUNCH();
      return;
    }
    const std::size_t chunk = plan.counts[0];
    A* partials = reinterpret_cast<A*>(scratch + plan.offsets[0]);
    if (plan.grid > 1) {  // never for the look-back's one block
      k::scan_rts_reduce<T, O, kBlock, kReduceUnroll>
          <<<plan.grid, kBlock, 0, stream>>>(in, partials, plan.n, chunk);
      XR_CUDA_CHECK_LAUNCH();
      k::scan_rts_partials<A, O, kPartialsBlock>
          <<<1, kPartialsBlock, 0, stream>>>(partials, plan.grid);
      XR_CUDA_CHECK_LAUNCH();
    }
    k::scan_rts_tiles<T, O, kBlock, kVecs><<<plan.grid, kBlock, 0, stream>>>(
        in, out, plan.grid > 1 ? partials : nullptr, plan.n, chunk, exclusive);
    XR_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace xr::cuda::detail
