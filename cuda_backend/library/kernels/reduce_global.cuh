// The classic in-place global-memory reduction kernels, one per row of their table, made correct
// for every n: no thread returns before a __syncthreads() (threads past n stay for the barriers and
// skip the adds), tails are folded instead of dropped, indices are 64-bit, and the warp-synchronous
// tail uses __syncwarp() where the original relied on `volatile` lock-step (a race since Volta).
//
// In-place rule that keeps tails exact: after each step, slot j of a block holds the fold of the
// original elements mapped to it; the slot is live iff its first element, base + j, is < n. An
// add happens only when the partner slot is live, so no value past n ever enters a result.
#pragma once

#include "kernels/ops.cuh"

namespace xr::cuda::kernels {

// reduceNeighbored: stride doubles, thread tid works when tid % (2*stride) == 0 (divergent).
template <class T, class O>
__global__ void global_neighbored(T* g_idata, T* g_odata, std::size_t n) {
  const unsigned tid = threadIdx.x;
  const std::size_t base = std::size_t(blockIdx.x) * blockDim.x;
  T* idata = g_idata + base;
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if ((tid % (2 * stride)) == 0 && base + tid + stride < n)
      idata[tid] = O::apply(idata[tid], idata[tid + stride]);
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

// reduceNeighboredLess: index = 2*stride*tid, so the working threads are contiguous.
template <class T, class O>
__global__ void global_neighbored_less(T* g_idata, T* g_odata, std::size_t n) {
  const unsigned tid = threadIdx.x;
  const std::size_t base = std::size_t(blockIdx.x) * blockDim.x;
  T* idata = g_idata + base;
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    const unsigned index = 2 * stride * tid;
    if (index < blockDim.x && base + index + stride < n)
      idata[index] = O::apply(idata[index], idata[index + stride]);
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

// The interleaved in-place tree from `from` down to stride `down_to` (exclusive).
template <class T, class O>
__device__ __forceinline__ void interleaved_tree(T* idata, std::size_t base, std::size_t n,
                                                 unsigned from, unsigned down_to) {
  const unsigned tid = threadIdx.x;
  for (unsigned stride = from; stride > down_to; stride >>= 1) {
    if (tid < stride && base + tid + stride < n)
      idata[tid] = O::apply(idata[tid], idata[tid + stride]);
    __syncthreads();
  }
}

// The original's `volatile` last warp, race-free: in each step lanes below `stride` read
// [stride, 2*stride) and write [0, stride) (disjoint), and __syncwarp() orders one step's
// writes before the next step's reads. Called by the 32 threads of warp 0; blockDim.x >= 64.
template <class T, class O>
__device__ __forceinline__ void last_warp_global(T* idata, std::size_t base, std::size_t n) {
  const unsigned tid = threadIdx.x;
#pragma unroll
  for (unsigned stride = 32; stride > 0; stride >>= 1) {
    if (tid < stride && base + tid + stride < n)
      idata[tid] = O::apply(idata[tid], idata[tid + stride]);
    __syncwarp();
  }
}

// reduceInterleaved: stride halves from blockDim.x / 2.
template <class T, class O>
__global__ void global_interleaved(T* g_idata, T* g_odata, std::size_t n) {
  const std::size_t base = std::size_t(blockIdx.x) * blockDim.x;
  interleaved_tree<T, O>(g_idata + base, base, n, blockDim.x / 2, 0);
  if (threadIdx.x == 0) g_odata[blockIdx.x] = g_idata[base];
}

// The unrolling prologue: slot idx folds the K data blocks idx, idx + blockDim.x, ... in place.
// Full groups take the original's K independent loads; the last, partial group folds what exists
// (the original dropped it).
template <class T, class O, int K>
__device__ __forceinline__ void fold_k_blocks(T* g_idata, std::size_t idx, std::size_t n) {
  const std::size_t bd = blockDim.x;
  if (idx + (K - 1) * bd < n) {
    T a[K];
#pragma unroll
    for (int k = 0; k < K; ++k) a[k] = g_idata[idx + k * bd];
    T acc = a[0];
#pragma unroll
    for (int k = 1; k < K; ++k) acc = O::apply(acc, a[k]);
    g_idata[idx] = acc;
  } else if (idx < n) {
    T acc = g_idata[idx];
    for (int k = 1; k < K && idx + k * bd < n; ++k) acc = O::apply(acc, g_idata[idx + k * bd]);
    g_idata[idx] = acc;
  }
}

// reduceUnrolling2/4/8: K data blocks per thread block, then the interleaved tree.
template <class T, class O, int K>
__global__ void global_unroll(T* g_idata, T* g_odata, std::size_t n) {
  const std::size_t base = std::size_t(blockIdx.x) * blockDim.x * K;
  fold_k_blocks<T, O, K>(g_idata, base + threadIdx.x, n);
  __syncthreads();
  interleaved_tree<T, O>(g_idata + base, base, n, blockDim.x / 2, 0);
  if (threadIdx.x == 0) g_odata[blockIdx.x] = g_idata[base];
}

// reduceUnrollWarps8: unroll 8, tree down to 64 live slots, then the last warp without barriers.
template <class T, class O>
__global__ void global_unroll_warps8(T* g_idata, T* g_odata, std::size_t n) {
  const std::size_t base = std::size_t(blockIdx.x) * blockDim.x * 8;
  fold_k_blocks<T, O, 8>(g_idata, base + threadIdx.x, n);
  __syncthreads();
  interleaved_tree<T, O>(g_idata + base, base, n, blockDim.x / 2, 32);
  if (threadIdx.x < 32) last_warp_global<T, O>(g_idata + base, base, n);
  if (threadIdx.x == 0) g_odata[blockIdx.x] = g_idata[base];
}

// One completely unrolled step: `size` is the block size (runtime or template constant).
template <class T, class O>
__device__ __forceinline__ void unrolled_step(T* idata, std::size_t base, std::size_t n,
                                              unsigned size, unsigned half) {
  const unsigned tid = threadIdx.x;
  if (size >= 2 * half && tid < half && base + tid + half < n)
    idata[tid] = O::apply(idata[tid], idata[tid + half]);
  __syncthreads();
}

// reduceCompleteUnrollWarps8 (kSize == 0: block size read from blockDim.x at run time) and
// reduceCompleteUnroll<iBlockSize> (kSize > 0: the dead steps vanish at compile time).
template <class T, class O, unsigned kSize>
__global__ void global_complete_unroll(T* g_idata, T* g_odata, std::size_t n) {
  const unsigned size = kSize ? kSize : blockDim.x;
  const std::size_t base = std::size_t(blockIdx.x) * size * 8;
  T* idata = g_idata + base;
  fold_k_blocks<T, O, 8>(g_idata, base + threadIdx.x, n);
  __syncthreads();
  unrolled_step<T, O>(idata, base, n, size, 512);
  unrolled_step<T, O>(idata, base, n, size, 256);
  unrolled_step<T, O>(idata, base, n, size, 128);
  unrolled_step<T, O>(idata, base, n, size, 64);
  if (threadIdx.x < 32) last_warp_global<T, O>(idata, base, n);
  if (threadIdx.x == 0) g_odata[blockIdx.x] = idata[0];
}

}  // namespace xr::cuda::kernels
