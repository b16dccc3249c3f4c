// smem/hillis-steele, blelloch/bcao, warp/shuffle-up: a block-level scan per tile, the tile totals
// scanned (exclusively) by the same kernel level by level until one tile remains, then a uniform
// add from the top level down to `out`.
//
// Plan fields: counts[k] = elements scanned at level k (counts[0] = n, counts[k+1] = the tile
// count of level k); for each level k >= 1, offsets[2(k-1)] = the totals of level k-1 (level k's
// input) and offsets[2(k-1)+1] = their exclusive scan (level k's output), bytes into scratch.
// Every region is written before it is read in each call, so the zero fill is not relied on.
#include "kernels/scan_tiled.cuh"
#include "scan_dispatch.hpp"

namespace xr::cuda::detail {
namespace {

// The one place the tiled shapes live; policy_scan_tiled reports them. None is swept yet (the
// H200 measurement comes later); the reasons they start here:
// - hillis-steele: 512 threads, one element each, as GPU Gems 3 §39.2.1's one-block kernel;
//   2 x 512 x 4 bytes of double buffer.
// - blelloch/bcao: 512 threads x 2 elements (1024-element tiles), the shape of the bcao
//   implementation seed 001 measured against.
// - warp/shuffle-up: 256 threads x 8 consecutive items (2048-element tiles): eight values in
//   flight per thread in registers, 8.4 KB of staging so several blocks fit an SM.
constexpr unsigned kHillisBlock = 512;
constexpr unsigned kBlellochBlock = 512;
constexpr unsigned kWarpBlock = 256;
constexpr unsigned kWarpItems = 8;

template <class T>
std::size_t blelloch_shared_bytes(unsigned block) {
  const unsigned tile = 2 * block;
  return (tile + tile / 32) * sizeof(T);
}

}  // namespace

Policy policy_scan_tiled(ScanKernel k, const DeviceLimits& /*dev*/) {
  switch (k) {
    case ScanKernel::smem_hillis_steele:
      return {int(kHillisBlock), 1, 4, 0, "not swept yet; GPU Gems 3 39.2.1, one element/thread"};
    case ScanKernel::blelloch_bcao:
      return {int(kBlellochBlock), 2, 4, 0, "not swept yet; bcao's 512 threads x 2 elements"};
    case ScanKernel::warp_shuffle_up:
      return {int(kWarpBlock), int(kWarpItems), 4, 0, "not swept yet"};
    default:
      throw Error(ErrorCategory::unsupported, "cuda: not a tiled scan kernel");
  }
}

void plan_scan_tiled(ScanPlan& plan, const DeviceLimits& dev) {
  const Policy pol = policy_scan_tiled(plan.kernel, dev);
  plan.block = static_cast<unsigned>(pol.block_threads);
  plan.tile = std::size_t(pol.block_threads) * pol.items_per_thread;
  plan.tiles = ceil_div(plan.n, plan.tile);
  plan.grid = to_grid(plan.tiles);  // the largest launch; higher levels are smaller
  const std::size_t elem = size_of(plan.dtype);
  plan.counts = {plan.n};
  plan.offsets.clear();
  std::size_t bytes = 0;
  for (std::size_t m = plan.n; m > plan.tile;) {  // a level of more than one tile
    m = ceil_div(m, plan.tile);
    plan.offsets.push_back(bytes);  // the totals
    bytes += align256(m * elem);
    plan.offsets.push_back(bytes);  // their exclusive scan
    bytes += align256(m * elem);
    plan.counts.push_back(m);
  }
  plan.scratch_bytes = bytes;
}

void enqueue_scan_tiled(const ScanPlan& plan, const ScanBuffers& bufs, ScanKind kind,
                        cudaStream_t stream) {
  kernels::with_type_op(plan.dtype, plan.op, [&]<class T, class O>() {
    namespace k = kernels;
    const T* in = static_cast<const T*>(bufs.input);
    T* out = static_cast<T*>(bufs.output);
    char* scratch = static_cast<char*>(bufs.scratch);
    auto totals_of = [&](std::size_t level) {  // level >= 1: its input
      return reinterpret_cast<T*>(scratch + plan.offsets[2 * (level - 1)]);
    };
    auto scanned_of = [&](std::size_t level) {  // level >= 1: its output
      return reinterpret_cast<T*>(scratch + plan.offsets[2 * (level - 1) + 1]);
    };
    const std::size_t levels = plan.counts.size();

    // Up: scan every level tile by tile, each writing its tile totals for the next.
    for (std::size_t level = 0; level < levels; ++level) {
      const std::size_t m = plan.counts[level];
      const T* src = level ? totals_of(level) : in;
      T* dst = level ? scanned_of(level) : out;
      T* totals = level + 1 < levels ? totals_of(level + 1) : nullptr;
      const bool exclusive = level ? true : kind == ScanKind::exclusive;
      const unsigned grid = static_cast<unsigned>(ceil_div(m, plan.tile));
      switch (plan.kernel) {
        case ScanKernel::smem_hillis_steele:
          k::scan_hillis_steele<T, O><<<grid, plan.block, 2 * plan.block * sizeof(T), stream>>>(
              src, dst, totals, m, exclusive);
          break;
        case ScanKernel::blelloch_bcao:
          k::scan_blelloch_bcao<T, O>
              <<<grid, plan.block, blelloch_shared_bytes<T>(plan.block), stream>>>(src, dst, totals,
                                                                                   m, exclusive);
          break;
        case ScanKernel::warp_shuffle_up:
          k::scan_warp_shuffle_up<T, O, kWarpBlock, kWarpItems>
              <<<grid, kWarpBlock, 0, stream>>>(src, dst, totals, m, exclusive);
          break;
        default:
          throw Error(ErrorCategory::unsupported, "cuda: not a tiled scan kernel");
      }
      XR_CUDA_CHECK_LAUNCH();
    }

    // Down: the top level is complete; each level below gets its tiles' exclusive prefixes.
    for (std::size_t level = levels - 1; level >= 1; --level) {
      T* data = level - 1 ? scanned_of(level - 1) : out;
      const unsigned grid = static_cast<unsigned>(plan.counts[level] - 1);  // tile 0 keeps its own
      k::uniform_add<T, O><<<grid, plan.block, 0, stream>>>(data, scanned_of(level),
                                                            plan.counts[level - 1], plan.tile);
      XR_CUDA_CHECK_LAUNCH();
    }
  });
}

}  // namespace xr::cuda::detail
