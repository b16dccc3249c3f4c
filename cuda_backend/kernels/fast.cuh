// fast/*: bandwidth-bound reduction. 128-bit loads, kUnroll independent loads in flight per
// thread, a grid of one resident wave (SM count x occupancy, chosen by dispatch), register
// trees per warp. fast/vectorized finishes with a second one-block launch; fast/single-pass
// finishes inside the same launch (last block by atomic ticket), in a fixed order.
#pragma once

#include "kernels/warp_reduce.cuh"

namespace xr::cuda::kernels {

template <class T>
struct Vec4;
template <>
struct Vec4<float> {
  using type = float4;
};
template <>
struct Vec4<std::uint32_t> {
  using type = uint4;
};
template <>
struct Vec4<std::int32_t> {
  using type = int4;
};

template <class T, class O, class V>
__device__ __forceinline__ T fold4(const V& v) {
  return O::apply(O::apply(T(v.x), T(v.y)), O::apply(T(v.z), T(v.w)));
}

// This thread's fold of `in` (any alignment of 4-byte elements, any n): the head up to the first
// 16-byte boundary and the tail after the last whole vector (< 4 elements each) go to the first
// threads; the body is read as 16-byte vectors, kUnroll of them in flight per iteration.
// The order of the fold depends only on n, the address and the grid: deterministic.
template <class T, class O, int kUnroll>
__device__ __forceinline__ T thread_fold_vectorized(const T* __restrict__ in, std::size_t n,
                                                    std::size_t thread, std::size_t threads) {
  using V = typename Vec4<T>::type;
  const auto addr = reinterpret_cast<std::uintptr_t>(in);
  std::size_t head = ((16 - (addr & 15)) & 15) / sizeof(T);
  if (head > n) head = n;
  const std::size_t nvec = (n - head) / 4;
  const std::size_t tail = head + nvec * 4;
  const V* __restrict__ vin = reinterpret_cast<const V*>(in + head);

  T acc = O::template identity<T>();
  std::size_t i = thread;
  for (; i + (kUnroll - 1) * threads < nvec; i += kUnroll * threads) {
    V v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = __ldg(vin + i + u * threads);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc = O::apply(acc, fold4<T, O>(v[u]));
  }
  for (; i < nvec; i += threads) acc = O::apply(acc, fold4<T, O>(__ldg(vin + i)));
  if (thread < head) acc = O::apply(acc, in[thread]);
  if (thread < n - tail) acc = O::apply(acc, in[tail + thread]);
  return acc;
}

// fast/vectorized: one partial per block.
template <class T, class O, int kBlock, int kUnroll>
__global__ void __launch_bounds__(kBlock)
    fast_vectorized(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  T acc = thread_fold_vectorized<T, O, kUnroll>(
      in, n, std::size_t(blockIdx.x) * kBlock + threadIdx.x, std::size_t(gridDim.x) * kBlock);
  acc = block_reduce<T, O>(acc);
  if (threadIdx.x == 0) out[blockIdx.x] = acc;
}

// fast/single-pass: every block publishes its partial and takes a ticket; the block that draws
// the last ticket folds all partials in index order (the same order every run: deterministic),
// writes the result and resets the ticket to 0 for the next launch on the same scratch.
template <class T, class O, int kBlock, int kUnroll>
__global__ void __launch_bounds__(kBlock)
    fast_single_pass(const T* __restrict__ in, T* partials, unsigned* ticket, T* out,
                     std::size_t n) {
  __shared__ bool is_last;
  T acc = thread_fold_vectorized<T, O, kUnroll>(
      in, n, std::size_t(blockIdx.x) * kBlock + threadIdx.x, std::size_t(gridDim.x) * kBlock);
  acc = block_reduce<T, O>(acc);
  if (gridDim.x == 1) {  // n <= kOneBlockMax: one block is the whole reduction, no ticket
    if (threadIdx.x == 0) *out = acc;
    return;
  }
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = acc;
    __threadfence();  // the partial is visible device-wide before the ticket is taken
    is_last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last) return;
  __threadfence();  // pairs with the other blocks' fences: their partials are read after this
  T v = O::template identity<T>();
  for (unsigned i = threadIdx.x; i < gridDim.x; i += kBlock) v = O::apply(v, __ldcg(partials + i));
  v = block_reduce<T, O>(v);  // slots reuse is safe: the __syncthreads above separates the uses
  if (threadIdx.x == 0) {
    *out = v;
    *ticket = 0;
  }
}

}  // namespace xr::cuda::kernels
