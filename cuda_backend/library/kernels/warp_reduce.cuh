// Warp- and block-level trees over registers (the classic warp-shuffle warpReduce / blockReduce),
// shared by warp/*, fast/* and the bandwidth kernel. Shuffles are warp-synchronous by definition:
// no shared-memory lock-step, so they are race-free on Volta and later.
#pragma once

#include "kernels/ops.cuh"

namespace xr::cuda::kernels {

constexpr unsigned kFullMask = 0xffffffffu;

// Lane 0 ends with the warp's value.
template <class T, class O>
__device__ __forceinline__ T warp_reduce_down(T v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v = O::apply(v, __shfl_down_sync(kFullMask, v, offset));
  return v;
}

// Every lane ends with the warp's value (butterfly).
template <class T, class O>
__device__ __forceinline__ T warp_reduce_xor(T v) {
  for (int mask = warpSize / 2; mask > 0; mask /= 2)
    v = O::apply(v, __shfl_xor_sync(kFullMask, v, mask));
  return v;
}

// The classic blockReduce: each warp reduces, lane 0 parks the value in one of 32 slots, warp 0
// reduces the slots. blockDim.x must be a multiple of the warp size (<= 1024, so <= 32 warps).
// Thread 0 ends with the block's value. Calls __syncthreads once: call it once per kernel.
template <class T, class O, bool kXor = false>
__device__ __forceinline__ T block_reduce(T v) {
  __shared__ T slots[32];
  const unsigned lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
  v = kXor ? warp_reduce_xor<T, O>(v) : warp_reduce_down<T, O>(v);
  if (lane == 0) slots[wid] = v;
  __syncthreads();
  if (wid == 0) {
    v = lane < blockDim.x / warpSize ? slots[lane] : O::template identity<T>();
    v = kXor ? warp_reduce_xor<T, O>(v) : warp_reduce_down<T, O>(v);
  }
  return v;
}

}  // namespace xr::cuda::kernels
