// fast/*: grid of one resident wave (SM count x occupancy of the instantiated kernel), fewer
// blocks when n is small so that every thread still has a full unrolled iteration of work.
#include "dispatch.hpp"
#include "kernels/fast.cuh"

namespace xr::cuda::detail {
namespace {

// Compile-time shape of both fast kernels; policy() reports the same numbers and the
// measurement that chose them (xreduce_cuda_tune, H200: 256 x 4 at 0.994x CUB).
constexpr int kBlock = 256;
constexpr int kUnroll = 4;  // 16-byte loads in flight per thread per iteration
constexpr std::size_t kBytesPerBlockIter = std::size_t(kBlock) * kUnroll * 16;
// fast/single-pass runs one block, without partials or ticket, up to this n: the ticket's chain
// of L2 round trips (partial store, fence, atomic, the last block's loads) costs ~1.4 us, more
// than one block's extra loop iterations below it. H200, f32 sum, this n as the one-block limit
// against the 4096-element tiles (cold / batch us): 8K 4.7 / 2.6 against 5.6 / 3.7, 16K
// 5.8 / 3.1 against 6.0 / 4.0, but 32K 7.7 / 3.9 against 5.7 / 3.8 (a sweep of this limit over
// 8K..64K, issue 10). Vulkan's single pass crosses at the same n.
constexpr std::size_t kOneBlockMax = 16384;

template <class T, class A, class O>
unsigned wave_blocks(const DeviceLimits& dev, Kernel k) {
  int per_sm = 0;
  if (k == Kernel::fast_single_pass)
    XR_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, kernels::fast_single_pass<T, O, kBlock, kUnroll>, kBlock, 0));
  else
    XR_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, kernels::fast_vectorized<T, A, O, kBlock, kUnroll>, kBlock, 0));
  return static_cast<unsigned>(std::max(per_sm, 1) * std::max(dev.sm_count, 1));
}

}  // namespace

void plan_fast(Plan& plan, const DeviceLimits& dev) {
  unsigned wave = 0;
  kernels::with_type_op(plan.dtype, plan.op, [&]<class T, class A, class O>() {
    wave = wave_blocks<T, A, O>(dev, plan.kernel);
  });
  // Sized by the input's elements per 16 bytes; the passes over partials are one block anyway.
  const std::size_t elems_per_block_iter = kBytesPerBlockIter / size_of(plan.dtype);
  const std::size_t partial_bytes = size_of(accumulator_of(plan.dtype));
  auto shape = [&](std::size_t m) {
    Pass p;
    p.block = kBlock;
    p.grid = static_cast<unsigned>(std::min<std::size_t>(wave, ceil_div(m, elems_per_block_iter)));
    return p;
  };
  if (plan.kernel == Kernel::fast_vectorized) return chain_passes(plan, partial_bytes, shape);

  // Single pass: partials (one per block), then the ticket on its own 16-byte slot.
  Pass p = shape(plan.n);
  if (plan.n <= kOneBlockMax) p.grid = 1;
  p.src = Pass::kInput;
  p.dst = Pass::kResult;
  p.elems = plan.n;
  plan.passes = {p};
  plan.ticket_offset = ceil_div(std::size_t(p.grid) * partial_bytes, 16) * 16;
  plan.scratch_bytes = plan.ticket_offset + 16;
}

void enqueue_fast(const Plan& plan, const Buffers& bufs, cudaStream_t stream) {
  kernels::with_type_op(plan.dtype, plan.op, [&]<class T, class A, class O>() {
    namespace k = kernels;
    for (const Pass& p : plan.passes) {
      if (plan.kernel == Kernel::fast_vectorized) {
        with_pass_types<T, A>(p, bufs, [&]<class In, class Out>(const In* src, Out* dst) {
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
