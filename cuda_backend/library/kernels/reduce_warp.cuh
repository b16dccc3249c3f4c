// warp/*: the classic warp-shuffle reduce's grid-stride kernel with register-level warp trees. Each
// block writes one partial; dispatch ends with one block over the partials (the original's <<<1,
// 1024>>>).
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "kernels/warp_reduce.cuh"

namespace xr::cuda::kernels {

// In the accumulator. One element per thread per step, as the original: the variants of this family
// are about the shuffle tree, not the loads (fast/* is the vectorised reduce).
template <class T, class O>
__device__ __forceinline__ acc_t<T> grid_stride_fold(const T* in, std::size_t n) {
  acc_t<T> acc = O::template identity<acc_t<T>>();
  const std::size_t step = std::size_t(blockDim.x) * gridDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
    acc = O::apply(acc, to_acc(in[i]));
  return acc;
}

// warp/shuffle-down (kXor = false) and warp/shuffle-xor (kXor = true). In: the input's storage
// type or the partials' accumulator; Out: the accumulator, or the storage type for the result.
template <class In, class Out, class O, bool kXor>
__global__ void warp_shuffle(const In* in, Out* out, std::size_t n) {
  const acc_t<In> acc = block_reduce<acc_t<In>, O, kXor>(grid_stride_fold<In, O>(in, n));
  if (threadIdx.x == 0) out[blockIdx.x] = from_acc<Out>(acc);
}

// One warp's value in every lane through the hardware's reduction: __reduce_*_sync (REDUX,
// sm_80+) for 32-bit integers, cooperative_groups::reduce (a shuffle tree) for floats and 64-bit
// integers, which REDUX does not take.
template <class T, class O>
__device__ __forceinline__ T warp_redux(T v) {
  if constexpr (std::is_integral_v<T> && sizeof(T) == 4) {
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
template <class In, class Out, class O>
__global__ void warp_redux_kernel(const In* in, Out* out, std::size_t n) {
  using A = acc_t<In>;
  __shared__ A slots[32];
  const unsigned lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
  A v = warp_redux<A, O>(grid_stride_fold<In, O>(in, n));
  if (lane == 0) slots[wid] = v;
  __syncthreads();
  if (wid == 0) {
    v = warp_redux<A, O>(lane < blockDim.x / warpSize ? slots[lane] : O::template identity<A>());
    if (lane == 0) out[blockIdx.x] = from_acc<Out>(v);
  }
}

}  // namespace xr::cuda::kernels
