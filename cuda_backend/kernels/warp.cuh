// warp/*: seed 002's grid-stride kernel with register-level warp trees. Each block writes one
// partial; dispatch ends with one block over the partials (the seed's <<<1, 1024>>>).
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "kernels/warp_reduce.cuh"

namespace xr::cuda::kernels {

template <class T, class O>
__device__ __forceinline__ T grid_stride_fold(const T* in, std::size_t n) {
  T acc = O::template identity<T>();
  const std::size_t step = std::size_t(blockDim.x) * gridDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
    acc = O::apply(acc, in[i]);
  return acc;
}

// warp/shuffle-down (kXor = false) and warp/shuffle-xor (kXor = true).
template <class T, class O, bool kXor>
__global__ void warp_shuffle(const T* in, T* out, std::size_t n) {
  T acc = block_reduce<T, O, kXor>(grid_stride_fold<T, O>(in, n));
  if (threadIdx.x == 0) out[blockIdx.x] = acc;
}

// One warp's value in every lane through the hardware's reduction: __reduce_*_sync (REDUX,
// sm_80+) for 32-bit integers, cooperative_groups::reduce (a shuffle tree) for floats.
template <class T, class O>
__device__ __forceinline__ T warp_redux(T v) {
  if constexpr (std::is_integral_v<T>) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    return warp_reduce_xor<T, O>(v);  // an older GPU in the build: unsupported_reason refuses it
#else
    if constexpr (std::is_same_v<O, SumOp>) return T(__reduce_add_sync(kFullMask, v));
    if constexpr (std::is_same_v<O, MinOp>) return __reduce_min_sync(kFullMask, v);
    if constexpr (std::is_same_v<O, MaxOp>) return __reduce_max_sync(kFullMask, v);
#endif
  } else {
    namespace cg = cooperative_groups;
    const auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    if constexpr (std::is_same_v<O, SumOp>) return cg::reduce(warp, v, cg::plus<T>());
    if constexpr (std::is_same_v<O, MinOp>) return cg::reduce(warp, v, cg::less<T>());
    if constexpr (std::is_same_v<O, MaxOp>) return cg::reduce(warp, v, cg::greater<T>());
  }
}

// warp/redux: blockReduce with the warp tree replaced by warp_redux.
template <class T, class O>
__global__ void warp_redux_kernel(const T* in, T* out, std::size_t n) {
  __shared__ T slots[32];
  const unsigned lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
  T v = warp_redux<T, O>(grid_stride_fold<T, O>(in, n));
  if (lane == 0) slots[wid] = v;
  __syncthreads();
  if (wid == 0) {
    v = warp_redux<T, O>(lane < blockDim.x / warpSize ? slots[lane] : O::template identity<T>());
    if (lane == 0) out[blockIdx.x] = v;
  }
}

}  // namespace xr::cuda::kernels
