// warp/*: the classic warp-shuffle deviceReduce. A grid-stride pass of at most 1024 blocks of 512
// threads, then one block of 1024 threads over the partials.
#include "kernels/reduce_warp.cuh"
#include "reduce_dispatch.hpp"

namespace xr::cuda::detail {
namespace {

// The classic warp-shuffle reduce's constants: `threads = 512; blocks = min((n + threads - 1) /
// threads, 1024)` and a second launch <<<1, 1024>>>.
constexpr unsigned kMaxBlocks = 1024;
constexpr unsigned kFinalBlock = 1024;
// At most this many elements go straight to the one-block launch (<= 4 loop trips a thread).
constexpr std::size_t kOneBlockMax = 4 * kFinalBlock;

}  // namespace

void plan_reduce_warp(ReducePlan& plan, const DeviceLimits& dev) {
  const Policy pol = reduce_policy(plan.kernel, dev);
  chain_launches(plan, size_of(accumulator_of(plan.dtype)), [&](std::size_t m) {
    ReduceLaunch p;
    if (m <= kOneBlockMax) {
      p.grid = 1;
      p.block = kFinalBlock;
    } else {
      p.block = pol.block_threads;
      p.grid = to_grid(std::min<std::size_t>(ceil_div(m, pol.block_threads), kMaxBlocks));
    }
    return p;
  });
}

void enqueue_reduce_warp(const ReducePlan& plan, const ReduceBuffers& bufs, cudaStream_t stream) {
  kernels::with_type_op(plan.dtype, plan.op, [&]<class T, class A, class O>() {
    namespace k = kernels;
    for (const ReduceLaunch& p : plan.launches) {
      with_launch_types<T, A>(p, bufs, [&]<class In, class Out>(const In* src, Out* dst) {
        switch (plan.kernel) {
          case ReduceKernel::warp_shuffle_down:
            k::warp_shuffle<In, Out, O, false><<<p.grid, p.block, 0, stream>>>(src, dst, p.elems);
            break;
          case ReduceKernel::warp_shuffle_xor:
            k::warp_shuffle<In, Out, O, true><<<p.grid, p.block, 0, stream>>>(src, dst, p.elems);
            break;
          case ReduceKernel::warp_redux:
            k::warp_redux_kernel<In, Out, O><<<p.grid, p.block, 0, stream>>>(src, dst, p.elems);
            break;
          default:
            throw Error(ErrorCategory::unsupported, "cuda: not a warp/* kernel");
        }
      });
      XR_CUDA_CHECK_LAUNCH();
    }
  });
}

}  // namespace xr::cuda::detail
