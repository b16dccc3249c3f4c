// fast/replicated: a resident wave of blocks reads the samples 16 bytes a thread at a time (16
// u8, 8 u16, 4 32-bit or 2 f64 samples a load, several loads in flight), each block counting into
// `copies` sub-histograms of its shared memory, lane l adding into copy l % copies: with 32
// copies the lanes of a warp that hit one bin hit 32 different counters, in 32 different banks
// (copies are `stride` counters apart, stride = 1 modulo 32), so a warp's add is one shared-memory
// round however its samples fall. The copies are summed bin by bin at the end (consecutive
// threads, consecutive bins: no bank conflict either) and each nonzero bin added to the output
// with one global atomic.
// Where the tuning table says so (bytes, few bins, many samples), the counters are lane-banked
// instead: a lane's counters all in its own bank (histogram_lane_banked).
// Bins past the shared memory: each block adds into one of `copies` copies of the bins in global
// memory (block b into copy b % copies), then histogram_sum_copies folds them into the output;
// with one copy the blocks add into the output itself.
// The samples need only be element-aligned: the ones before the first 16-byte boundary are read
// one a thread, then the aligned body by vectors, then the tail one a thread.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "kernels/histogram_bins.cuh"
#include "kernels/ops.cuh"
#include "kernels/warp_reduce.cuh"

namespace xr::cuda::kernels {

// Calls f(sample) for each of the n samples at `samples` (element-aligned) that thread `first`
// of `threads` owns: the unaligned head one a thread, the body by 16-byte vectors, kUnroll of
// them in flight per thread, the tail one a thread. `threads` >= 16 (the head's samples).
template <class T, int kUnroll, class F>
__device__ __forceinline__ void for_each_sample(const T* __restrict__ samples, std::size_t n,
                                                std::size_t first, std::size_t threads, F&& f) {
  constexpr int kPack = Pack<T>::kCount;
  const auto misaligned =
      static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(samples) % 16 / sizeof(T));
  const std::size_t head = misaligned ? std::min<std::size_t>(n, kPack - misaligned) : 0;
  if (first < head) f(samples[first]);
  const T* body = samples + head;
  const std::size_t rest = n - head;
  const std::size_t packs = rest / kPack;
  for (std::size_t v = first; v < packs; v += threads * kUnroll) {
    Pack<T> p[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      if (v + u * threads < packs) p[u] = load_pack(body + (v + u * threads) * kPack);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      if (v + u * threads < packs)
#pragma unroll
        for (int j = 0; j < kPack; ++j) f(p[u].e[j]);
  }
  for (std::size_t i = packs * kPack + first; i < rest; i += threads) f(body[i]);
}

// Counters of `copies` (a power of two, at most 32) sub-histograms of the bins of this block's
// slice (grid row y counts bins [y * slice_bins, (y + 1) * slice_bins) of `bins`) in dynamic
// shared memory, copy c at c * stride (copies * stride * 4 bytes), merged into `out`. The plan
// bounds a block's samples below 2^32: the u32 counters and their sums cannot wrap.
template <class T, int kBlock, int kMinBlocks, int kUnroll>
__global__ void __launch_bounds__(kBlock, kMinBlocks)
    histogram_replicated(const T* __restrict__ samples, std::size_t n, const unsigned* count,
                         BinRule<T> rule, Counters out, unsigned bins, unsigned slice_bins,
                         unsigned copies, unsigned stride) {
  static_assert(kBlock >= 16, "a thread for each sample of the unaligned head");
  n = samples_of_call(n, count);
  const unsigned first_bin = blockIdx.y * slice_bins;
  const unsigned slice = min(slice_bins, bins - first_bin);
  unsigned* counters = shared_array<unsigned>();
  for (unsigned k = threadIdx.x; k < copies * stride; k += kBlock) counters[k] = 0;
  __syncthreads();
  unsigned* mine = counters + (threadIdx.x & (copies - 1)) * stride;
  const std::size_t first = std::size_t(blockIdx.x) * kBlock + threadIdx.x;
  rule.visit([&](const auto& bin_of) {
    for_each_sample<T, kUnroll>(samples, n, first, std::size_t(gridDim.x) * kBlock, [&](T s) {
      // kNoBin (negative) wraps past every slice, as do the other slices' bins.
      if (const unsigned b = unsigned(bin_of(s)) - first_bin; b < slice) atomicAdd(&mine[b], 1u);
    });
  });
  __syncthreads();
  for (unsigned b = threadIdx.x; b < slice; b += kBlock) {
    unsigned sum = 0;
    for (unsigned c = 0; c < copies; ++c) sum += counters[c * stride + b];
    if (sum) out.add(first_bin + b, sum);
  }
}

// The counter of sample s in a lane-banked copy: its bin, or `bins` (the discard bin) where it is
// counted nowhere. On the identity path (width == bins) that is d clamped to `bins`, one
// instruction with no compare-and-select for the compiler to turn into a branch.
template <class BinOf, class T>
__device__ __forceinline__ unsigned lane_slot(const BinOf& bin_of, T s, unsigned bins) {
  const int bin = bin_of(s);
  return bin == kNoBin ? bins : unsigned(bin);
}
template <class T>
__device__ __forceinline__ unsigned lane_slot(
    const IntegerBinOf<histogram::IntegerPath::identity>& bin_of, T s, unsigned bins) {
  return min(static_cast<std::uint32_t>(s) - bin_of.c.offset, bins);
}

// The lane-banked layout: `copies` copies of the bins a block, bin b of lane l at counter
// b * 32 + l of copy w % copies (w the thread's warp). Every counter of lane l lies in bank l, so
// a warp's 32 adds fall in 32 banks wherever its samples fall (fast/replicated's layout leaves
// lanes colliding in a bank at uniform samples); the warps of one copy share its counters through
// the atomics. A sample counted nowhere adds into a discard bin past the last (bin `bins`), so
// that every sample's add is unconditional: skipping it puts a branch around each atomic, which
// takes 1.8x the time at 2^28 bytes (bench/gpu/histogram/lane_banked_code.cu). At the end
// thread k sums counter k over the copies, and the warp holding bin k / 32's 32 lanes adds their
// sum to the output once. The plan bounds a block's samples below
// 2^32: the u32 counters and their sums cannot wrap.
template <class T, int kBlock, int kMinBlocks, int kUnroll>
__global__ void __launch_bounds__(kBlock, kMinBlocks)
    histogram_lane_banked(const T* __restrict__ samples, std::size_t n, const unsigned* count,
                          BinRule<T> rule, Counters out, unsigned bins, unsigned copies) {
  static_assert(kBlock >= 16 && kBlock % 32 == 0, "whole warps, a thread for each head sample");
  n = samples_of_call(n, count);
  const unsigned words = (bins + 1) * 32;  // a copy's counters, the discard bin's last
  unsigned* counters = shared_array<unsigned>();
  for (unsigned k = threadIdx.x; k < copies * words; k += kBlock) counters[k] = 0;
  __syncthreads();
  unsigned* mine = counters + (threadIdx.x / 32 % copies) * words + (threadIdx.x & 31);
  const std::size_t first = std::size_t(blockIdx.x) * kBlock + threadIdx.x;
  rule.visit([&](const auto& bin_of) {
    for_each_sample<T, kUnroll>(samples, n, first, std::size_t(gridDim.x) * kBlock, [&](T s) {
      atomicAdd(&mine[lane_slot(bin_of, s, bins) * 32], 1u);
    });
  });
  __syncthreads();
  // bins * 32 and kBlock are multiples of 32: a warp's lanes enter and leave the loop together.
  for (unsigned k = threadIdx.x; k < bins * 32; k += kBlock) {
    unsigned sum = 0;
    for (unsigned c = 0; c < copies; ++c) sum += counters[c * words + k];
    sum = warp_reduce_xor<unsigned, SumOp>(sum);
    if ((k & 31) == 0 && sum) out.add(k / 32, sum);
  }
}

// Bins past the shared memory: block b adds into copy b % copies of `bins` counters from `out`
// (the output itself when copies is 1), one global atomic a sample.
template <class T, int kBlock, int kMinBlocks, int kUnroll>
__global__ void __launch_bounds__(kBlock, kMinBlocks)
    histogram_replicated_global(const T* __restrict__ samples, std::size_t n, const unsigned* count,
                                BinRule<T> rule, Counters out, unsigned bins, unsigned copies) {
  static_assert(kBlock >= 16, "a thread for each sample of the unaligned head");
  n = samples_of_call(n, count);
  const Counters mine = out.from(std::size_t(blockIdx.x % copies) * bins);
  const std::size_t first = std::size_t(blockIdx.x) * kBlock + threadIdx.x;
  rule.visit([&](const auto& bin_of) {
    for_each_sample<T, kUnroll>(samples, n, first, std::size_t(gridDim.x) * kBlock, [&](T s) {
      if (const int bin = bin_of(s); bin != kNoBin) mine.add(unsigned(bin), 1u);
    });
  });
}

}  // namespace xr::cuda::kernels
