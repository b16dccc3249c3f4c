// bit/*: the prefix sum on a Fenwick tree (binary indexed tree, BIT). The tree is an
// n-element array in scratch over 1-based positions 1..n, node p covering (p - lowbit(p), p]; it
// is built from `in` level by level (at level `idx`, every p that is a multiple of idx gets
// tree[p-1] = tree[p-1-idx/2] op tree[p-1]), then every output is an O(log n) query.
//
// Fixes over the original, which the original's own code needs for any n: barriers are outside the
// `i < n` test (threads past n take part in every __syncthreads and do nothing else), indices and
// Fenwick positions are 64-bit, the input is copied into the tree instead of being overwritten,
// and the query starts from the op's identity so it serves min and max as well as sum.
// Combination order: build `left op right`, query `node op acc` from the right end leftwards:
// fixed, so bitwise deterministic. The tree and every query accumulate in A = acc_t<T> (float for
// f16 / bf16); an output is rounded to T once.
#pragma once

#include <cooperative_groups.h>

#include "kernels/ops.cuh"

namespace xr::cuda::kernels {

// The lowest set bit of a 1-based Fenwick position (`j & -j` on an unsigned 64-bit value).
__device__ __forceinline__ std::size_t lowbit(std::size_t j) {
  return j & (~j + 1);
}

// One build step at level `idx` (a power of two) for the 0-based element i, whose position
// i + 1 is a multiple of idx: its node absorbs the node idx/2 to its left. Nodes written at one
// level are never read at that level (p - idx/2 is an odd multiple of idx/2), so a level needs
// no ordering inside itself.
template <class T, class O>
__device__ __forceinline__ void bit_absorb(T* tree, std::size_t i, std::size_t idx) {
  tree[i] = O::apply(tree[i - idx / 2], tree[i]);
}

// The BIT scan's gen_bit_in_one_block: each block copies its slice of `in` into the tree and
// builds the levels idx = 2 .. blockDim.x in global memory, with __syncthreads between levels
// (block-local: p - idx/2 stays inside the block for idx <= blockDim.x).
template <class T, class O>
__global__ void gen_bit_in_one_block(const T* __restrict__ in, acc_t<T>* __restrict__ tree,
                                     std::size_t n) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) tree[i] = to_acc(in[i]);
  __syncthreads();
  for (unsigned idx = 2; idx <= blockDim.x; idx *= 2) {
    if (i < n && ((i + 1) & (idx - 1)) == 0) bit_absorb<acc_t<T>, O>(tree, i, idx);
    __syncthreads();
  }
}

// The BIT scan's unrolled build: the same in-block build with a compile-time block size, every
// level an explicit step (one __syncthreads each, reached by every thread).
template <class T, class O, unsigned kBlock>
__global__ void __launch_bounds__(kBlock)
    gen_bit_in_one_block_unrolled(const T* __restrict__ in, acc_t<T>* __restrict__ tree,
                                  std::size_t n) {
  const std::size_t i = std::size_t(blockIdx.x) * kBlock + threadIdx.x;
  if (i < n) tree[i] = to_acc(in[i]);
  __syncthreads();
#pragma unroll
  for (unsigned idx = 2; idx <= kBlock; idx *= 2) {
    if (i < n && ((i + 1) & (idx - 1)) == 0) bit_absorb<acc_t<T>, O>(tree, i, idx);
    __syncthreads();
  }
}

// The BIT scan's first scheme (gen_bit_one_layer): one level above the block per launch, one
// thread per position; the launch boundary is the grid-wide barrier.
template <class T, class O>
__global__ void gen_bit_one_layer(T* tree, std::size_t n, std::size_t idx) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n && ((i + 1) & (idx - 1)) == 0) bit_absorb<T, O>(tree, i, idx);
}

// The BIT scan's second scheme (gen_bit_between_blocks): one block builds every level from
// `idx` up, its threads striding over the positions of a level, __syncthreads between levels.
template <class T, class O>
__global__ void gen_bit_between_blocks(T* tree, std::size_t n, std::size_t idx) {
  const std::size_t stride = std::size_t(blockDim.x);
  for (; idx <= n; idx *= 2) {
    for (std::size_t p = (threadIdx.x + 1) * idx; p <= n; p += idx * stride)
      bit_absorb<T, O>(tree, p - 1, idx);
    __syncthreads();
  }
}

// The BIT scan's calc_sum_using_bit, first form: the prefix is accumulated in global memory, one
// read-modify-write per tree node (volatile, so the compiler cannot keep it in a register and
// the measurement is of what the original wrote): in out[i] itself where T is its own accumulator,
// else in `sums[i]` (n accumulator values in scratch), stored to out[i] rounded once. Inclusive
// queries position i + 1, exclusive i.
template <class T, class O>
__global__ void calc_sum_using_bit(const acc_t<T>* __restrict__ tree, T* out, acc_t<T>* sums,
                                   std::size_t n, bool exclusive) {
  using A = acc_t<T>;
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  volatile A* acc;
  if constexpr (std::is_same_v<T, A>)
    acc = out + i;
  else
    acc = sums + i;
  *acc = O::template identity<A>();
  for (std::size_t j = exclusive ? i : i + 1; j > 0; j -= lowbit(j)) {
    const A cur = *acc;
    *acc = O::apply(tree[j - 1], cur);
  }
  if constexpr (!std::is_same_v<T, A>) out[i] = from_acc<T>(*acc);
}

// The BIT scan's shared-memory query: the same query accumulating in shared memory
// (sum[threadIdx.x], volatile for the same reason), written to out[i] once. Shared: blockDim.x
// elements. No barrier: each thread touches only its own slot.
template <class T, class O>
__global__ void calc_sum_using_bit_smem(const acc_t<T>* __restrict__ tree, T* __restrict__ out,
                                        std::size_t n, bool exclusive) {
  using A = acc_t<T>;
  volatile A* acc = shared_array<A>() + threadIdx.x;
  *acc = O::template identity<A>();
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (std::size_t j = exclusive ? i : i + 1; j > 0; j -= lowbit(j)) {
    const A cur = *acc;
    *acc = O::apply(tree[j - 1], cur);
  }
  out[i] = from_acc<T>(*acc);
}

// The BIT scan's open question ("cooperative groups ... always wrong"), answered: the whole BIT
// built and queried in one cooperative launch. The grid is at most one co-resident wave and
// strides over everything: (1) each kBlock-element slice is built in shared memory (levels
// 2 .. kBlock) and written to the tree; grid sync; (2) every level above the block over the
// whole grid, a grid sync after each; (3) the query, accumulating in a register. The tree is
// read with ordinary (coherent) loads: it is written in this same launch.
template <class T, class O, unsigned kBlock>
__global__ void __launch_bounds__(kBlock)
    bit_cooperative(const T* __restrict__ in, acc_t<T>* tree, T* __restrict__ out, std::size_t n,
                    bool exclusive) {
  namespace cg = cooperative_groups;
  using A = acc_t<T>;
  __shared__ A s[kBlock];
  const cg::grid_group grid = cg::this_grid();
  const unsigned tid = threadIdx.x;
  const std::size_t slices = (n + kBlock - 1) / kBlock;
  // (1) Block-uniform loop: every thread of a block runs the same trips, so the barriers inside
  // are reached by all. After the last level's barrier a thread reads only its own slot, which
  // it alone writes next trip: no barrier needed at the end of a trip.
  for (std::size_t slice = blockIdx.x; slice < slices; slice += gridDim.x) {
    const std::size_t i = slice * kBlock + tid;
    s[tid] = load_or_identity<T, O>(in, i, n);
    __syncthreads();
#pragma unroll
    for (unsigned idx = 2; idx <= kBlock; idx *= 2) {
      if (((tid + 1) & (idx - 1)) == 0) s[tid] = O::apply(s[tid - idx / 2], s[tid]);
      __syncthreads();
    }
    if (i < n) tree[i] = s[tid];
  }
  grid.sync();
  // (2) Levels above the block: thread g handles positions (g + 1) * idx, then strides.
  const std::size_t g = std::size_t(blockIdx.x) * kBlock + tid;
  const std::size_t threads = std::size_t(gridDim.x) * kBlock;
  for (std::size_t idx = 2 * std::size_t(kBlock); idx <= n; idx *= 2) {
    for (std::size_t p = (g + 1) * idx; p <= n; p += idx * threads)
      bit_absorb<A, O>(tree, p - 1, idx);
    grid.sync();
  }
  // (3) Query.
  for (std::size_t i = g; i < n; i += threads) {
    A acc = O::template identity<A>();
    for (std::size_t j = exclusive ? i : i + 1; j > 0; j -= lowbit(j))
      acc = O::apply(tree[j - 1], acc);
    out[i] = from_acc<T>(acc);
  }
}

}  // namespace xr::cuda::kernels
