// The textbook histogram ladder (Hwu, Kirk & El Hajj, "Programming Massively Parallel Processors",
// 4th ed., ch. 9) as one kernel body, each rung a choice of where the adds go, how many samples a
// thread takes and how it aggregates them:
//   atomic/global        one global atomicAdd per sample, one thread a sample;
//   atomic/privatized    the block's private copy of the bins in shared memory (zeroed, a
//                        barrier, shared atomics, a barrier, merged into the output with one global
//                        atomicAdd per nonzero bin), one thread a sample;
//   atomic/coarsened     privatized, a wave of resident blocks striding over the samples
//                        (interleaved: a warp's loads stay coalesced);
//   atomic/aggregated    coarsened, a thread's run of equal consecutive bins added once;
//   subgroup/aggregated  coarsened, a warp's lanes of one bin found by __match_any_sync and added
//                        once by the lowest of them.
// The grid (one thread a sample, or a wave) is the plan's: the body strides over the samples
// either way. Past shared memory the privatized rungs add into the output in global memory
// instead (`privatized` false), as CUB does past its shared-memory bins.
#pragma once

#include <cstddef>

#include "kernels/histogram_bins.cuh"
#include "kernels/ops.cuh"

namespace xr::cuda::kernels {

// How a thread's adds are combined before they reach the counters.
enum class Aggregation {
  none,  // one add per sample
  run,   // one add per run of equal consecutive bins of a thread
  warp,  // one add per group of equal bins of a warp's lanes (sm_70: __match_any_sync)
};

// Calls add(bin, c) for the samples of this thread (first, first + stride, ...), aggregated by
// kAgg; `bin_of` is a BinRule's visited rule.
template <Aggregation kAgg, class T, class BinOf, class Add>
__device__ __forceinline__ void count_strided(const T* __restrict__ samples, std::size_t n,
                                              std::size_t first, std::size_t stride,
                                              const BinOf& bin_of, Add&& add) {
  if constexpr (kAgg == Aggregation::none) {
    for (std::size_t i = first; i < n; i += stride)
      if (const int bin = bin_of(samples[i]); bin != kNoBin) add(bin, 1u);
  } else if constexpr (kAgg == Aggregation::run) {
    int prev = kNoBin;
    unsigned run = 0;
    for (std::size_t i = first; i < n; i += stride) {
      const int bin = bin_of(samples[i]);
      if (bin != prev) {
        if (prev != kNoBin) add(prev, run);
        prev = bin;
        run = 0;
      }
      ++run;
    }
    if (prev != kNoBin) add(prev, run);
  } else {
    // The loop runs while the warp's first lane has a sample, so every lane reaches the match:
    // a lane past n matches the others past n with kNoBin, and that group adds nothing.
    const unsigned lane = threadIdx.x % 32;
    for (std::size_t i = first; i - lane < n; i += stride) {
      const int bin = i < n ? bin_of(samples[i]) : kNoBin;
      const unsigned peers = __match_any_sync(kFullMask, bin);
      if (bin != kNoBin && lane == unsigned(__ffs(peers) - 1)) add(bin, unsigned(__popc(peers)));
    }
  }
}

// One rung of the ladder over n samples (or the count on the device, at most n). `privatized`:
// the block counts into `bins` u32 counters of dynamic shared memory (bins * 4 bytes; the plan
// bounds a block's samples below 2^32) and merges them into `out`; otherwise every add goes to
// `out`. kBlock is a multiple of 32 (whole warps: Aggregation::warp matches over all lanes).
template <class T, Aggregation kAgg, int kBlock>
__global__ void __launch_bounds__(kBlock)
    histogram_atomic(const T* __restrict__ samples, std::size_t n, const unsigned* count,
                     BinRule<T> rule, Counters out, unsigned bins, bool privatized) {
  static_assert(kBlock % 32 == 0, "whole warps");
  n = samples_of_call(n, count);
  unsigned* mine = shared_array<unsigned>();
  if (privatized) {
    for (unsigned b = threadIdx.x; b < bins; b += kBlock) mine[b] = 0;
    __syncthreads();
  }
  const auto add = [&](int bin, unsigned c) {
    if (privatized)
      atomicAdd(&mine[bin], c);
    else
      out.add(unsigned(bin), c);
  };
  const std::size_t first = std::size_t(blockIdx.x) * kBlock + threadIdx.x;
  const std::size_t stride = std::size_t(gridDim.x) * kBlock;
  rule.visit(
      [&](const auto& bin_of) { count_strided<kAgg>(samples, n, first, stride, bin_of, add); });
  if (privatized) {
    __syncthreads();
    for (unsigned b = threadIdx.x; b < bins; b += kBlock)
      if (const unsigned c = mine[b]) out.add(b, c);
  }
}

}  // namespace xr::cuda::kernels
