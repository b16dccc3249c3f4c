// fast/* scans: tile geometry, grids and scratch (kernels/scan_fast.cuh).
//   fast/decoupled-lookback  scratch: [offsets[0]] one 64-bit status word per tile,
//                                     [offsets[1]] the 64-bit tile counter;
//                            grid: one block per tile
//   fast/reduce-then-scan    scratch: [offsets[0]] one partial per block of pass 1
#include "kernels/scan_fast.cuh"
#include "scan_dispatch.hpp"

namespace xr::cuda::detail {
namespace {

// The look-back's tile and pauses, chosen by xreduce_cuda_scan_tune on an H200 (2^28 inclusive
// sum, cold L2, median of 20; CUB 0.694 ms u32 / 0.696 ms f32, device copy 0.508 ms):
//   256 x 4 vectors, no pauses           0.890 / 0.922 ms  (0.78x / 0.76x CUB)
//   256 x 4, wait 1200 ns, poll 600 ns   0.729 / 0.771 ms
//   256 x 8, wait 1200 ns, poll 600 ns   0.688 / 0.697 ms
//   128 x 6, wait 1200 ns, poll 600 ns   0.669 / 0.672 ms
//   128 x 8, wait 1200 ns, poll 600 ns   0.662 / 0.661 ms  (1.05x CUB, 0.77x copy; 1.10x / 1.04x
//                                                          CUB at 2^24, 1.18x at 2^20)
// Pausing is what pays: hundreds of warps polling the same status lines slow every L2 access
// (CUB's sm90 tuning pauses likewise). Drawing tiles from the counter rather than taking
// blockIdx.x costs 1-2% (256 x 8: 0.688 against 0.682 ms) and buys independence from the order
// in which the hardware starts blocks.
constexpr int kLookBackBlock = 128;
constexpr int kLookBackVecs = 8;
constexpr unsigned kFirstWaitNs = 1200;
constexpr unsigned kSpinNs = 600;
// reduce-then-scan: each persistent block rescans a chunk of 256 x 4-vector tiles (its pass 3
// ran at 3.9 TB/s of its 3n bytes in the first H200 measurement; not swept further).
constexpr int kBlock = 256;
constexpr int kVecs = 4;
constexpr std::size_t kTile = std::size_t(kBlock) * kVecs * 4;
constexpr std::size_t kLookBackTile = std::size_t(kLookBackBlock) * kLookBackVecs * 4;
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

}  // namespace

Policy policy_scan_fast(ScanKernel k, const DeviceLimits&) {
  if (k == ScanKernel::fast_reduce_then_scan)
    return {kBlock, kVecs * 4, 16, 0,
            "grid one resident wave, each block a contiguous chunk; not swept"};
  return {kLookBackBlock, kLookBackVecs * 4, 16, 0,
          "one block per tile, pauses 1200/600 ns; H200 2^28: 1.05x CUB (xreduce_cuda_scan_tune)"};
}

void plan_scan_fast(ScanPlan& plan, const DeviceLimits& dev) {
  const bool look_back = plan.kernel == ScanKernel::fast_decoupled_lookback;
  plan.block = look_back ? kLookBackBlock : kBlock;
  plan.tile = look_back ? kLookBackTile : kTile;
  plan.tiles = ceil_div(plan.n, plan.tile);
  unsigned resident = 0;
  if (plan.kernel == ScanKernel::fast_reduce_then_scan)
    kernels::with_type_op(plan.dtype, plan.op, [&]<class T, class O>() {
      resident = wave(kernels::scan_rts_tiles<T, O, kBlock, kVecs>, dev);
    });
  if (plan.kernel == ScanKernel::fast_decoupled_lookback) {
    plan.grid = to_grid(plan.tiles);
    plan.offsets = {0, align256(plan.tiles * sizeof(unsigned long long))};
    plan.scratch_bytes = plan.offsets[1] + sizeof(unsigned long long);
    return;
  }
  const std::size_t tiles_per_block = ceil_div(plan.tiles, resident);
  plan.counts = {tiles_per_block * kTile};  // chunk: elements per block
  plan.grid = to_grid(ceil_div(plan.n, plan.counts[0]));
  plan.offsets = {0};
  plan.scratch_bytes = align256(std::size_t(plan.grid) * size_of(plan.dtype));
}

void enqueue_scan_fast(const ScanPlan& plan, const ScanBuffers& bufs, ScanKind kind,
                       cudaStream_t stream) {
  const bool exclusive = kind == ScanKind::exclusive;
  kernels::with_type_op(plan.dtype, plan.op, [&]<class T, class O>() {
    namespace k = kernels;
    const T* in = static_cast<const T*>(bufs.input);
    T* out = static_cast<T*>(bufs.output);
    char* scratch = static_cast<char*>(bufs.scratch);
    if (plan.kernel == ScanKernel::fast_decoupled_lookback) {
      auto* states = reinterpret_cast<unsigned long long*>(scratch + plan.offsets[0]);
      auto* counter = reinterpret_cast<unsigned long long*>(scratch + plan.offsets[1]);
      if (bufs.launch > 0 && bufs.launch % kEpochs == 0)  // the epochs wrap: forget old words
        XR_CUDA_CHECK(cudaMemsetAsync(states, 0, plan.offsets[1], stream));
      const k::LookBackArgs args{states,
                                 counter,
                                 bufs.launch * plan.tiles,
                                 static_cast<unsigned>(1 + bufs.launch % kEpochs),
                                 kFirstWaitNs,
                                 kSpinNs,
                                 exclusive};
      k::scan_decoupled_lookback<T, O, kLookBackBlock, kLookBackVecs>
          <<<plan.grid, kLookBackBlock, 0, stream>>>(in, out, plan.n, args);
      XR_CUDA_CHECK_LAUNCH();
      return;
    }
    const std::size_t chunk = plan.counts[0];
    T* partials = reinterpret_cast<T*>(scratch + plan.offsets[0]);
    if (plan.grid > 1) {
      k::scan_rts_reduce<T, O, kBlock, kReduceUnroll>
          <<<plan.grid, kBlock, 0, stream>>>(in, partials, plan.n, chunk);
      XR_CUDA_CHECK_LAUNCH();
      k::scan_rts_partials<T, O, kPartialsBlock>
          <<<1, kPartialsBlock, 0, stream>>>(partials, plan.grid);
      XR_CUDA_CHECK_LAUNCH();
    }
    k::scan_rts_tiles<T, O, kBlock, kVecs><<<plan.grid, kBlock, 0, stream>>>(
        in, out, plan.grid > 1 ? partials : nullptr, plan.n, chunk, exclusive);
    XR_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace xr::cuda::detail
