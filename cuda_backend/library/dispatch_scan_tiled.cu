// smem/hillis-steele, blelloch/bcao, warp/shuffle-up: a block-level scan per tile, the tile totals
// scanned (exclusively) by the same kernel level by level until one tile remains, then a uniform
// add from the top level down to `out`.
//
// Plan fields: counts[k] = elements scanned at level k (counts[0] = n, counts[k+1] = the tile
// count of level k); for each level k >= 1, offsets[2(k-1)] = the totals of level k-1 (level k's
// input) and offsets[2(k-1)+1] = their exclusive scan (level k's output), bytes into scratch.
// Levels above 0 hold the accumulator (float for f16 / bf16). A 16-bit scan of more than one tile
// also has offsets[2(levels-1)] = n accumulator values: level 0's tile scans write there, and the
// last uniform add rounds each output once (adding a prefix to an output already rounded would
// round twice, at the tile-local magnitude). Every region is written before it is read in each
// call, so the zero fill is not relied on.
#include "kernels/scan_tiled.cuh"
#include "scan_dispatch.hpp"
#include "xreduce/shapes.hpp"

namespace xr::cuda::detail {
namespace {

// The tiled shapes are core's (xreduce/shapes.hpp, with why each starts there; none is swept
// yet): hillis-steele 512 x 1 (2 x 512 x 4 bytes of double buffer), blelloch/bcao 512 x 2, and
// warp/shuffle-up the register scan's 256 x 8 (eight values in flight per thread in registers,
// 8.4 KB of staging so several blocks fit an SM).
constexpr TileShape kHillis = shared_shape(Primitive::scan, "smem/hillis-steele");
constexpr TileShape kBlelloch = shared_shape(Primitive::scan, "blelloch/bcao");
constexpr unsigned kWarpBlock = kRegisterScanShape.threads;
constexpr unsigned kWarpItems = kRegisterScanShape.items;

template <class A>
std::size_t blelloch_shared_bytes(unsigned block) {
  const unsigned tile = 2 * block;
  return (tile + tile / 32) * sizeof(A);
}

}  // namespace

Policy policy_scan_tiled(ScanKernel k, const DeviceLimits& /*dev*/) {
  switch (k) {
    case ScanKernel::smem_hillis_steele:
      return {int(kHillis.threads), int(kHillis.items), 4, 0, "core's shape; not swept yet"};
    case ScanKernel::blelloch_bcao:
      return {int(kBlelloch.threads), int(kBlelloch.items), 4, 0, "core's shape; not swept yet"};
    case ScanKernel::warp_shuffle_up:
      return {int(kWarpBlock), int(kWarpItems), 4, 0, "core's register scan; not swept yet"};
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
  // Core's levels and scratch regions, each on a 256-byte boundary; the levels above 0 hold
  // accumulators.
  const TiledScanLayout layout =
      tiled_scan_layout(plan.n, plan.tile, size_of(accumulator_of(plan.dtype)),
                        accumulator_of(plan.dtype) != plan.dtype, 256);
  plan.counts.assign(layout.counts.begin(), layout.counts.end());
  plan.offsets.clear();
  for (std::size_t k = 1; k < layout.levels(); ++k) {
    plan.offsets.push_back(layout.totals[k - 1]);   // the totals
    plan.offsets.push_back(layout.scanned[k - 1]);  // their exclusive scan
  }
  if (layout.wide) plan.offsets.push_back(*layout.wide);  // level 0's float prefixes
  plan.scratch_bytes = layout.scratch_bytes;
}

void enqueue_scan_tiled(const ScanPlan& plan, const ScanBuffers& bufs, ScanKind kind,
                        cudaStream_t stream) {
  kernels::with_type_op(plan.dtype, plan.op, [&]<class T, class A, class O>() {
    namespace k = kernels;
    char* scratch = static_cast<char*>(bufs.scratch);
    auto totals_of = [&](std::size_t level) {  // level >= 1: its input
      return reinterpret_cast<A*>(scratch + plan.offsets[2 * (level - 1)]);
    };
    auto scanned_of = [&](std::size_t level) {  // level >= 1: its output
      return reinterpret_cast<A*>(scratch + plan.offsets[2 * (level - 1) + 1]);
    };
    const std::size_t levels = plan.counts.size();

    // One level's tile scans: In is T at level 0, A above; Out likewise, but A at level 0 too
    // where the outputs wait in `wide`.
    auto scan_level = [&]<class In, class Out>(const In* src, Out* dst, A* totals, std::size_t m,
                                               bool exclusive) {
      const unsigned grid = static_cast<unsigned>(ceil_div(m, plan.tile));
      switch (plan.kernel) {
        case ScanKernel::smem_hillis_steele:
          k::scan_hillis_steele<In, Out, O>
              <<<grid, plan.block, 2 * plan.block * sizeof(A), stream>>>(src, dst, totals, m,
                                                                         exclusive);
          break;
        case ScanKernel::blelloch_bcao:
          k::scan_blelloch_bcao<In, Out, O>
              <<<grid, plan.block, blelloch_shared_bytes<A>(plan.block), stream>>>(src, dst, totals,
                                                                                   m, exclusive);
          break;
        case ScanKernel::warp_shuffle_up:
          k::scan_warp_shuffle_up<In, Out, O, kWarpBlock, kWarpItems>
              <<<grid, kWarpBlock, 0, stream>>>(src, dst, totals, m, exclusive);
          break;
        default:
          throw Error(ErrorCategory::unsupported, "cuda: not a tiled scan kernel");
      }
      XR_CUDA_CHECK_LAUNCH();
    };

    // Level 0's tile scans write T, or A where a 16-bit output must wait for its tile's prefix.
    A* wide = plan.offsets.size() > 2 * (levels - 1)
                  ? reinterpret_cast<A*>(scratch + plan.offsets[2 * (levels - 1)])
                  : nullptr;

    // Up: scan every level tile by tile, each writing its tile totals for the next.
    for (std::size_t level = 0; level < levels; ++level) {
      A* totals = level + 1 < levels ? totals_of(level + 1) : nullptr;
      const T* in = static_cast<const T*>(bufs.input);
      const bool exclusive = kind == ScanKind::exclusive;
      if (level > 0)
        scan_level(static_cast<const A*>(totals_of(level)), scanned_of(level), totals,
                   plan.counts[level], true);
      else if (wide)
        scan_level(in, wide, totals, plan.counts[0], exclusive);
      else
        scan_level(in, static_cast<T*>(bufs.output), totals, plan.counts[0], exclusive);
    }

    // Down: the top level is complete; each level below gets its tiles' exclusive prefixes.
    for (std::size_t level = levels - 1; level >= 1; --level) {
      const unsigned tiles = static_cast<unsigned>(plan.counts[level]);
      const A* prefix = scanned_of(level);
      if (level > 1) {
        A* data = scanned_of(level - 1);
        k::uniform_add<A, A, O><<<tiles - 1, plan.block, 0, stream>>>(
            data, data, prefix, plan.counts[level - 1], plan.tile, 1);
      } else if (wide) {
        k::uniform_add<A, T, O><<<tiles, plan.block, 0, stream>>>(
            wide, static_cast<T*>(bufs.output), prefix, plan.counts[0], plan.tile, 0);
      } else {
        T* out = static_cast<T*>(bufs.output);
        k::uniform_add<T, T, O>
            <<<tiles - 1, plan.block, 0, stream>>>(out, out, prefix, plan.counts[0], plan.tile, 1);
      }
      XR_CUDA_CHECK_LAUNCH();
    }
  });
}

}  // namespace xr::cuda::detail
