// fast/*: grid of one resident wave (SM count x occupancy of the instantiated kernel), fewer
// blocks when n is small so that every thread still has a full unrolled iteration of work.
#include "kernels/reduce_fast.cuh"
#include "reduce_dispatch.hpp"

namespace xr::cuda::detail {
namespace {

// Compile-time shape of both fast kernels: core's shared shape (xreduce/shapes.hpp, with the
// sweep that chose it), 4 loads of 16 bytes in flight per thread and iteration.
constexpr TileShape kShape = shared_shape(Primitive::reduce, "fast/vectorized");
constexpr int kBlock = kShape.threads;
constexpr int kUnroll = kShape.items / 4;  // 16-byte loads in flight per thread per iteration
constexpr std::size_t kBytesPerBlockIter = std::size_t(kBlock) * kUnroll * 16;
static_assert(shared_shape(Primitive::reduce, "fast/single-pass") == kShape);

template <class T, class A, class O>
unsigned wave_blocks(const DeviceLimits& dev, ReduceKernel k) {
  int per_sm = 0;
  if (k == ReduceKernel::fast_single_pass)
    XR_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, kernels::fast_single_pass<T, O, kBlock, kUnroll>, kBlock, 0));
  else
    XR_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, kernels::fast_vectorized<T, A, O, kBlock, kUnroll>, kBlock, 0));
  return static_cast<unsigned>(std::max(per_sm, 1) * std::max(dev.sm_count, 1));
}

}  // namespace

void plan_reduce_fast(ReducePlan& plan, const DeviceLimits& dev) {
  unsigned wave = 0;
  kernels::with_type_op(plan.dtype, plan.op, [&]<class T, class A, class O>() {
    wave = wave_blocks<T, A, O>(dev, plan.kernel);
  });
  // Sized by the input's elements per 16 bytes; the passes over partials are one block anyway.
  const std::size_t elems_per_block_iter = kBytesPerBlockIter / size_of(plan.dtype);
  const std::size_t partial_bytes = size_of(accumulator_of(plan.dtype));
  auto shape = [&](std::size_t m) {
    ReduceLaunch p;
    p.block = kBlock;
    p.grid = static_cast<unsigned>(std::min<std::size_t>(wave, ceil_div(m, elems_per_block_iter)));
    return p;
  };
  if (plan.kernel == ReduceKernel::fast_vectorized)
    return chain_launches(plan, partial_bytes, shape);

  // Single pass: partials (one per block), then the ticket on its own 16-byte slot.
  ReduceLaunch p = shape(plan.n);
  if (plan.n <= kSinglePassOneBlockMax) p.grid = 1;  // core's one-block limit, measured there
  p.src = ReduceLaunch::kInput;
  p.dst = ReduceLaunch::kResult;
  p.elems = plan.n;
  plan.launches = {p};
  plan.ticket_offset = ceil_div(std::size_t(p.grid) * partial_bytes, 16) * 16;
  plan.scratch_bytes = plan.ticket_offset + 16;
}

void enqueue_reduce_fast(const ReducePlan& plan, const ReduceBuffers& bufs, cudaStream_t stream) {
  kernels::with_type_op(plan.dtype, plan.op, [&]<class T, class A, class O>() {
    namespace k = kernels;
    for (const ReduceLaunch& p : plan.launches) {
      if (plan.kernel == ReduceKernel::fast_vectorized) {
        with_launch_types<T, A>(p, bufs, [&]<class In, class Out>(const In* src, Out* dst) {
          k::fast_vectorized<In, Out, O, kBlock, kUnroll>
              <<<p.grid, kBlock, 0, stream>>>(src, dst, p.elems);
        });
      } else {
        A* partials = static_cast<A*>(bufs.scratch);
        auto* ticket =
            reinterpret_cast<unsigned*>(static_cast<char*>(bufs.scratch) + plan.ticket_offset);
        k::fast_single_pass<T, O, kBlock, kUnroll>
            <<<p.grid, kBlock, 0, stream>>>(static_cast<const T*>(bufs.input), partials, ticket,
                                            static_cast<T*>(bufs.result), p.elems);
      }
      XR_CUDA_CHECK_LAUNCH();
    }
  });
}

}  // namespace xr::cuda::detail
