// smem/*: the Harris ladder. Steps 1-6 cover block (x2 from step 4) elements per block and
// re-launch over the partials; step 7 caps its grid at one resident wave and loops.
#include "kernels/reduce_smem.cuh"
#include "reduce_dispatch.hpp"

namespace xr::cuda::detail {
namespace {

// Step 7 hands the rest to one block once each thread would loop at most this often: a third
// launch of a handful of blocks costs more than 16 iterations (Harris's "algorithm cascading").
constexpr std::size_t kMultiElementOneBlockIters = 16;

// Calls launch.template operator()<size>() for a power-of-two block size in 64..1024.
template <class Launch>
void by_block_size(unsigned block, Launch&& launch) {
  switch (block) {
    case 1024:
      return launch.template operator()<1024>();
    case 512:
      return launch.template operator()<512>();
    case 256:
      return launch.template operator()<256>();
    case 128:
      return launch.template operator()<128>();
    case 64:
      return launch.template operator()<64>();
  }
  throw Error(ErrorCategory::unsupported, "smem/*: block size must be 64..1024, a power of two");
}

}  // namespace

void plan_reduce_smem(ReducePlan& plan, const DeviceLimits& dev) {
  const Policy pol = reduce_policy(plan.kernel, dev);
  const std::size_t block = pol.block_threads;
  const std::size_t per_block = block * pol.items_per_thread;
  const std::size_t cap = std::size_t(pol.max_blocks_per_sm) * dev.sm_count;
  chain_launches(plan, size_of(accumulator_of(plan.dtype)), [&](std::size_t m) {
    ReduceLaunch p;
    p.block = pol.block_threads;
    std::size_t blocks = ceil_div(m, per_block);
    if (cap) {
      blocks = std::min(blocks, cap);
      if (m <= per_block * kMultiElementOneBlockIters) blocks = 1;
    }
    p.grid = to_grid(blocks);
    return p;
  });
}

void enqueue_reduce_smem(const ReducePlan& plan, const ReduceBuffers& bufs, cudaStream_t stream) {
  kernels::with_type_op(plan.dtype, plan.op, [&]<class T, class A, class O>() {
    namespace k = kernels;
    const ReduceKernel kernel = plan.kernel;
    for (const ReduceLaunch& p : plan.launches) {
      const std::size_t shared = p.block * sizeof(A);  // the trees run in the accumulator
      with_launch_types<T, A>(p, bufs, [&]<class In, class Out>(const In* src, Out* dst) {
        switch (kernel) {
          case ReduceKernel::smem_interleaved_divergent:
            k::smem_interleaved_divergent<In, Out, O>
                <<<p.grid, p.block, shared, stream>>>(src, dst, p.elems);
            break;
          case ReduceKernel::smem_interleaved_strided:
            k::smem_interleaved_strided<In, Out, O>
                <<<p.grid, p.block, shared, stream>>>(src, dst, p.elems);
            break;
          case ReduceKernel::smem_sequential:
            k::smem_sequential<In, Out, O><<<p.grid, p.block, shared, stream>>>(src, dst, p.elems);
            break;
          case ReduceKernel::smem_first_add:
            k::smem_first_add<In, Out, O><<<p.grid, p.block, shared, stream>>>(src, dst, p.elems);
            break;
          case ReduceKernel::smem_unroll_last_warp:
            k::smem_unroll_last_warp<In, Out, O>
                <<<p.grid, p.block, shared, stream>>>(src, dst, p.elems);
            break;
          case ReduceKernel::smem_complete_unroll:
            by_block_size(p.block, [&]<unsigned kSize>() {
              k::smem_complete_unroll<In, Out, O, kSize>
                  <<<p.grid, kSize, shared, stream>>>(src, dst, p.elems);
            });
            break;
          case ReduceKernel::smem_multi_element:
            by_block_size(p.block, [&]<unsigned kSize>() {
              k::smem_multi_element<In, Out, O, kSize>
                  <<<p.grid, kSize, shared, stream>>>(src, dst, p.elems);
            });
            break;
          default:
            throw Error(ErrorCategory::unsupported, "cuda: not a smem/* kernel");
        }
      });
      XR_CUDA_CHECK_LAUNCH();
    }
  });
}

}  // namespace xr::cuda::detail
