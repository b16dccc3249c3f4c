// fast/*: bandwidth-bound reduction. 128-bit loads (of any element type), kUnroll independent loads
// in flight per thread, a grid of one resident wave (SM count x occupancy, chosen by dispatch),
// register trees per warp. fast/vectorized finishes with a second one-block launch;
// fast/single-pass finishes inside the same launch (last block by atomic ticket), in a fixed order.
#pragma once

#include "kernels/warp_reduce.cuh"

namespace xr::cuda::kernels {

// This thread's fold of `in` in the accumulator (any alignment of naturally aligned elements,
// any n): the head up to the first 16-byte boundary and the tail after the last whole vector
// (< one vector's elements each) go to the first threads; the body is read as 16-byte vectors
// (4 x 32-bit, 8 x 16-bit, 2 x 64-bit elements), kUnroll of them in flight per iteration.
// The order of the fold depends only on n, the address and the grid: deterministic.
template <class T, class O, int kUnroll>
__device__ __forceinline__ acc_t<T> thread_fold_vectorized(const T* __restrict__ in, std::size_t n,
                                                           std::size_t thread,
                                                           std::size_t threads) {
  constexpr int kPack = Pack<T>::kCount;
  const auto addr = reinterpret_cast<std::uintptr_t>(in);
  std::size_t head = ((16 - (addr & 15)) & 15) / sizeof(T);
  if (head > n) head = n;
  const std::size_t nvec = (n - head) / kPack;
  const std::size_t tail = head + nvec * kPack;
  const T* __restrict__ body = in + head;

  acc_t<T> acc = O::template identity<acc_t<T>>();
  std::size_t i = thread;
  for (; i + (kUnroll - 1) * threads < nvec; i += kUnroll * threads) {
    Pack<T> v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = load_pack(body + (i + u * threads) * kPack);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc = O::apply(acc, fold_pack<T, O>(v[u]));
  }
  for (; i < nvec; i += threads) acc = O::apply(acc, fold_pack<T, O>(load_pack(body + i * kPack)));
  if (thread < head) acc = O::apply(acc, to_acc(in[thread]));
  if (thread < n - tail) acc = O::apply(acc, to_acc(in[tail + thread]));
  return acc;
}

// fast/vectorized: one partial per block. In is the input's storage type (first pass) or the
// accumulator (a pass over partials); Out the accumulator, or the storage type for the result.
template <class In, class Out, class O, int kBlock, int kUnroll>
__global__ void __launch_bounds__(kBlock)
    fast_vectorized(const In* __restrict__ in, Out* __restrict__ out, std::size_t n) {
  using A = acc_t<In>;
  A acc = thread_fold_vectorized<In, O, kUnroll>(
      in, n, std::size_t(blockIdx.x) * kBlock + threadIdx.x, std::size_t(gridDim.x) * kBlock);
  acc = block_reduce<A, O>(acc);
  if (threadIdx.x == 0) out[blockIdx.x] = from_acc<Out>(acc);
}

// fast/single-pass: every block publishes its partial (in the accumulator A) and takes a ticket;
// the block that draws the last ticket folds all partials in index order (the same order every
// run: deterministic), writes the result (rounded once to T) and resets the ticket to 0 for the
// next launch on the same scratch.
template <class T, class O, int kBlock, int kUnroll>
__global__ void __launch_bounds__(kBlock)
    fast_single_pass(const T* __restrict__ in, acc_t<T>* partials, unsigned* ticket, T* out,
                     std::size_t n) {
  using A = acc_t<T>;
  __shared__ bool is_last;
  A acc = thread_fold_vectorized<T, O, kUnroll>(
      in, n, std::size_t(blockIdx.x) * kBlock + threadIdx.x, std::size_t(gridDim.x) * kBlock);
  acc = block_reduce<A, O>(acc);
  if (gridDim.x == 1) {  // n <= kOneBlockMax: one block is the whole reduction, no ticket
    if (threadIdx.x == 0) *out = from_acc<T>(acc);
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
  A v = O::template identity<A>();
  for (unsigned i = threadIdx.x; i < gridDim.x; i += kBlock) v = O::apply(v, __ldcg(partials + i));
  v = block_reduce<A, O>(v);  // slots reuse is safe: the __syncthreads above separates the uses
  if (threadIdx.x == 0) {
    *out = from_acc<T>(v);
    *ticket = 0;
  }
}

}  // namespace xr::cuda::kernels
