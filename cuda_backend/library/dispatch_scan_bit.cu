// bit/*: the Fenwick-tree (BIT) scan. The tree (n elements) lives in scratch: built from the
// input, then queried into the output; the input is never written.
//
// Plan fields: offsets[0] = 0, the tree (n accumulator values), counts[0] = n, its elements;
// offsets[1], for types that are not their own accumulator (f16, bf16) only: n accumulator values
// where bit/one-layer and bit/between-blocks accumulate their queries. block = tile = the
// original's 256; tiles = the blocks of the in-block build and of the query; grid = tiles, except
// bit/cooperative, whose grid is capped at one co-resident wave. The tree is fully rewritten by
// every call, so the zero fill is not relied on.
#include "kernels/scan_bit.cuh"
#include "scan_dispatch.hpp"
#include "xreduce/shapes.hpp"

namespace xr::cuda::detail {
namespace {

// The BIT scan launches every kernel with dim3 dimBlock(256) (and gen_bit_between_blocks as
// <<<1, 256>>>): core's shared shape of every bit/* id, so the ladder reproduces the original's
// steps. The unrolled and cooperative kernels take it as a compile-time size.
constexpr unsigned kBitBlock = shared_shape(Primitive::scan, "bit/one-layer").threads;
static_assert(shared_shape(Primitive::scan, "bit/unrolled").threads == kBitBlock);

template <class T, class O>
unsigned cooperative_wave(const DeviceLimits& dev) {
  int per_sm = 0;
  XR_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, kernels::bit_cooperative<T, O, kBitBlock>, kBitBlock, 0));
  if (per_sm < 1 || dev.sm_count < 1)
    throw Error(ErrorCategory::unsupported, "bit/cooperative: no block of the kernel fits an SM");
  return static_cast<unsigned>(per_sm * dev.sm_count);
}

}  // namespace

Policy policy_scan_bit(ScanKernel k, const DeviceLimits& /*dev*/) {
  switch (k) {
    case ScanKernel::bit_one_layer:
    case ScanKernel::bit_between_blocks:
    case ScanKernel::bit_smem:
    case ScanKernel::bit_unrolled:
      return {int(kBitBlock), 1, 4, 0, "BIT scan: block 256"};
    case ScanKernel::bit_cooperative:
      return {int(kBitBlock), 1, 4, 0, "BIT scan: block 256; grid: one co-resident wave"};
    default:
      throw Error(ErrorCategory::unsupported, "cuda: not a bit/* scan kernel");
  }
}

void plan_scan_bit(ScanPlan& plan, const DeviceLimits& dev) {
  const Policy pol = policy_scan_bit(plan.kernel, dev);
  plan.block = static_cast<unsigned>(pol.block_threads);
  plan.tile = plan.block;
  plan.tiles = ceil_div(plan.n, plan.tile);
  plan.grid = to_grid(plan.tiles);
  if (plan.kernel == ScanKernel::bit_cooperative) {
    if (!dev.cooperative_launch)
      throw Error(ErrorCategory::unsupported,
                  "bit/cooperative: the device does not support cooperative launches");
    unsigned wave = 0;
    kernels::with_type_op(plan.dtype, plan.op,
                          [&]<class T, class, class O>() { wave = cooperative_wave<T, O>(dev); });
    plan.grid = static_cast<unsigned>(std::min<std::size_t>(plan.tiles, wave));
  }
  const DType acc = accumulator_of(plan.dtype);
  plan.offsets = {0};
  plan.counts = {plan.n};
  plan.scratch_bytes = align256(plan.n * size_of(acc));
  const bool query_in_global =
      plan.kernel == ScanKernel::bit_one_layer || plan.kernel == ScanKernel::bit_between_blocks;
  if (acc != plan.dtype && query_in_global) {
    plan.offsets.push_back(plan.scratch_bytes);
    plan.scratch_bytes += align256(plan.n * size_of(acc));
  }
}

void enqueue_scan_bit(const ScanPlan& plan, const ScanBuffers& bufs, ScanKind kind,
                      cudaStream_t stream) {
  if (plan.block != kBitBlock)
    throw Error(ErrorCategory::unsupported, "bit/*: the plan's block is not the kernels' 256");
  kernels::with_type_op(plan.dtype, plan.op, [&]<class T, class A, class O>() {
    namespace k = kernels;
    const T* in = static_cast<const T*>(bufs.input);
    T* out = static_cast<T*>(bufs.output);
    char* scratch = static_cast<char*>(bufs.scratch);
    A* tree = reinterpret_cast<A*>(scratch + plan.offsets[0]);
    A* sums = plan.offsets.size() > 1 ? reinterpret_cast<A*>(scratch + plan.offsets[1]) : nullptr;
    std::size_t n = plan.n;
    bool exclusive = kind == ScanKind::exclusive;
    const unsigned grid = plan.grid, block = plan.block;
    const std::size_t above_block = 2 * std::size_t(block);  // the first level a block cannot see

    if (plan.kernel == ScanKernel::bit_cooperative) {
      // One launch; the arguments must match the kernel's parameter types exactly.
      void* args[] = {&in, &tree, &out, &n, &exclusive};
      XR_CUDA_CHECK(cudaLaunchCooperativeKernel(k::bit_cooperative<T, O, kBitBlock>, grid,
                                                kBitBlock, args, 0, stream));
      return;
    }

    // Build, levels inside a block.
    if (plan.kernel == ScanKernel::bit_unrolled)
      k::gen_bit_in_one_block_unrolled<T, O, kBitBlock>
          <<<grid, kBitBlock, 0, stream>>>(in, tree, n);
    else
      k::gen_bit_in_one_block<T, O><<<grid, block, 0, stream>>>(in, tree, n);
    XR_CUDA_CHECK_LAUNCH();

    // Build, levels above the block (none when n < 2 * block).
    if (plan.kernel == ScanKernel::bit_one_layer) {
      for (std::size_t idx = above_block; idx <= n; idx *= 2) {
        k::gen_bit_one_layer<A, O><<<grid, block, 0, stream>>>(tree, n, idx);
        XR_CUDA_CHECK_LAUNCH();
      }
    } else if (above_block <= n) {
      k::gen_bit_between_blocks<A, O><<<1, block, 0, stream>>>(tree, n, above_block);
      XR_CUDA_CHECK_LAUNCH();
    }

    // Query.
    if (plan.kernel == ScanKernel::bit_one_layer || plan.kernel == ScanKernel::bit_between_blocks)
      k::calc_sum_using_bit<T, O><<<grid, block, 0, stream>>>(tree, out, sums, n, exclusive);
    else
      k::calc_sum_using_bit_smem<T, O>
          <<<grid, block, block * sizeof(A), stream>>>(tree, out, n, exclusive);
    XR_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace xr::cuda::detail
