// global/*: the classic in-place reduction kernels. Each pass reduces blocks of block x K elements
// in place and writes one partial per block; the next pass runs the same kernel over the partials.
// They keep to the 32-bit types the classic kernels ran (i32, u32, f32): the partials live in the
// input itself, which for f16 / bf16 has no room for their float partials; the 64-bit types would
// fit but are not instantiated, as the ladder exists to reproduce the original's table.
#include "kernels/reduce_global.cuh"
#include "reduce_dispatch.hpp"

namespace xr::cuda::detail {

void plan_reduce_global(ReducePlan& plan, const DeviceLimits& dev) {
  const Policy pol = reduce_policy(plan.kernel, dev);
  const std::size_t per_block = std::size_t(pol.block_threads) * pol.items_per_thread;
  chain_launches(plan, size_of(plan.dtype), [&](std::size_t m) {
    ReduceLaunch p;
    p.block = pol.block_threads;
    p.grid = to_grid(ceil_div(m, per_block));
    return p;
  });
}

void enqueue_reduce_global(const ReducePlan& plan, const ReduceBuffers& bufs, cudaStream_t stream) {
  using kernels::TypeSet;
  kernels::with_type_op<TypeSet::bits32>(plan.dtype, plan.op, [&]<class T, class, class O>() {
    namespace k = kernels;
    for (const ReduceLaunch& p : plan.launches) {
      T* src = static_cast<T*>(launch_ptr(p.src, bufs, sizeof(T)));
      T* dst = static_cast<T*>(launch_ptr(p.dst, bufs, sizeof(T)));
      switch (plan.kernel) {
        case ReduceKernel::global_neighbored:
          k::global_neighbored<T, O><<<p.grid, p.block, 0, stream>>>(src, dst, p.elems);
          break;
        case ReduceKernel::global_neighbored_less:
          k::global_neighbored_less<T, O><<<p.grid, p.block, 0, stream>>>(src, dst, p.elems);
          break;
        case ReduceKernel::global_interleaved:
          k::global_interleaved<T, O><<<p.grid, p.block, 0, stream>>>(src, dst, p.elems);
          break;
        case ReduceKernel::global_unroll2:
          k::global_unroll<T, O, 2><<<p.grid, p.block, 0, stream>>>(src, dst, p.elems);
          break;
        case ReduceKernel::global_unroll4:
          k::global_unroll<T, O, 4><<<p.grid, p.block, 0, stream>>>(src, dst, p.elems);
          break;
        case ReduceKernel::global_unroll8:
          k::global_unroll<T, O, 8><<<p.grid, p.block, 0, stream>>>(src, dst, p.elems);
          break;
        case ReduceKernel::global_unroll_warps8:
          k::global_unroll_warps8<T, O><<<p.grid, p.block, 0, stream>>>(src, dst, p.elems);
          break;
        case ReduceKernel::global_complete_unroll_warps8:
          k::global_complete_unroll<T, O, 0><<<p.grid, p.block, 0, stream>>>(src, dst, p.elems);
          break;
        case ReduceKernel::global_complete_unroll_template:
          // The original's switch: the block size becomes a template constant.
          switch (p.block) {
            case 1024:
              k::global_complete_unroll<T, O, 1024><<<p.grid, 1024, 0, stream>>>(src, dst, p.elems);
              break;
            case 512:
              k::global_complete_unroll<T, O, 512><<<p.grid, 512, 0, stream>>>(src, dst, p.elems);
              break;
            case 256:
              k::global_complete_unroll<T, O, 256><<<p.grid, 256, 0, stream>>>(src, dst, p.elems);
              break;
            case 128:
              k::global_complete_unroll<T, O, 128><<<p.grid, 128, 0, stream>>>(src, dst, p.elems);
              break;
            case 64:
              k::global_complete_unroll<T, O, 64><<<p.grid, 64, 0, stream>>>(src, dst, p.elems);
              break;
            default:
              throw Error(
                  ErrorCategory::unsupported,
                  "global/complete-unroll-template: block size must be 64..1024, a power of two");
          }
          break;
        default:
          throw Error(ErrorCategory::unsupported, "cuda: not a global/* kernel");
      }
      XR_CUDA_CHECK_LAUNCH();
    }
  });
}

}  // namespace xr::cuda::detail
