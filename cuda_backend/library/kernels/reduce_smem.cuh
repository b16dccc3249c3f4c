// The seven Harris steps in shared memory: the CUDA side of the CUDA/Vulkan bridge, the same
// algorithm as shaders/smem_*.comp under the same ids. Each block writes one partial; dispatch
// re-launches the same kernel over the partials until one value remains.
//
// Shared contract of all seven: block size is a power of two (>= 64 for steps 5-7); a thread
// whose element lies past n loads the op's identity, so the trees need no tail checks. In is the
// input's storage type (first pass) or the accumulator (a pass over partials), Out the
// accumulator or, for the result, the storage type; shared memory and the trees hold the
// accumulator A = acc_t<In> (float for f16 / bf16).
#pragma once

#include "kernels/ops.cuh"

namespace xr::cuda::kernels {

// #1 interleaved addressing, divergent: `tid % (2*s) == 0` does the work.
template <class In, class Out, class O>
__global__ void smem_interleaved_divergent(const In* in, Out* out, std::size_t n) {
  using A = acc_t<In>;
  A* s = shared_array<A>();
  const unsigned tid = threadIdx.x;
  s[tid] = load_or_identity<In, O>(in, std::size_t(blockIdx.x) * blockDim.x + tid, n);
  __syncthreads();
  for (unsigned st = 1; st < blockDim.x; st *= 2) {
    if (tid % (2 * st) == 0) s[tid] = O::apply(s[tid], s[tid + st]);
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = from_acc<Out>(s[0]);
}

// #2 interleaved addressing, strided index `index = 2*s*tid`: no divergence, bank conflicts.
template <class In, class Out, class O>
__global__ void smem_interleaved_strided(const In* in, Out* out, std::size_t n) {
  using A = acc_t<In>;
  A* s = shared_array<A>();
  const unsigned tid = threadIdx.x;
  s[tid] = load_or_identity<In, O>(in, std::size_t(blockIdx.x) * blockDim.x + tid, n);
  __syncthreads();
  for (unsigned st = 1; st < blockDim.x; st *= 2) {
    const unsigned index = 2 * st * tid;
    if (index < blockDim.x) s[index] = O::apply(s[index], s[index + st]);
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = from_acc<Out>(s[0]);
}

// Sequential addressing from stride `from` while stride > `down_to`: `tid < s` halving.
template <class T, class O>
__device__ __forceinline__ void sequential_tree(T* s, unsigned from, unsigned down_to) {
  const unsigned tid = threadIdx.x;
  for (unsigned st = from; st > down_to; st >>= 1) {
    if (tid < st) s[tid] = O::apply(s[tid], s[tid + st]);
    __syncthreads();
  }
}

// #3 sequential addressing: conflict-free, half the threads idle from the first step.
template <class In, class Out, class O>
__global__ void smem_sequential(const In* in, Out* out, std::size_t n) {
  using A = acc_t<In>;
  A* s = shared_array<A>();
  s[threadIdx.x] =
      load_or_identity<In, O>(in, std::size_t(blockIdx.x) * blockDim.x + threadIdx.x, n);
  __syncthreads();
  sequential_tree<A, O>(s, blockDim.x / 2, 0);
  if (threadIdx.x == 0) out[blockIdx.x] = from_acc<Out>(s[0]);
}

// The first add during load (#4-#6): each block covers 2*blockDim.x elements.
template <class T, class O>
__device__ __forceinline__ acc_t<T> load_two(const T* in, std::size_t n, unsigned size) {
  const std::size_t i = std::size_t(blockIdx.x) * (size * 2) + threadIdx.x;
  return O::apply(load_or_identity<T, O>(in, i, n), load_or_identity<T, O>(in, i + size, n));
}

// #4 first add during load, then sequential addressing.
template <class In, class Out, class O>
__global__ void smem_first_add(const In* in, Out* out, std::size_t n) {
  using A = acc_t<In>;
  A* s = shared_array<A>();
  s[threadIdx.x] = load_two<In, O>(in, n, blockDim.x);
  __syncthreads();
  sequential_tree<A, O>(s, blockDim.x / 2, 0);
  if (threadIdx.x == 0) out[blockIdx.x] = from_acc<Out>(s[0]);
}

// Harris's unrolled last warp, race-free: without lock-step (Volta+), lanes below `st` read
// [st, 2*st) and write [0, st) - disjoint in one step - and __syncwarp() orders each step's
// writes before the next step's reads. No volatile. Called by warp 0 with 64 live slots.
template <class T, class O>
__device__ __forceinline__ void last_warp(T* s) {
  const unsigned tid = threadIdx.x;
#pragma unroll
  for (unsigned st = 32; st > 0; st >>= 1) {
    if (tid < st) s[tid] = O::apply(s[tid], s[tid + st]);
    __syncwarp();
  }
}

// #5 unroll the last warp: barriers only while more than one warp works.
template <class In, class Out, class O>
__global__ void smem_unroll_last_warp(const In* in, Out* out, std::size_t n) {
  using A = acc_t<In>;
  A* s = shared_array<A>();
  s[threadIdx.x] = load_two<In, O>(in, n, blockDim.x);
  __syncthreads();
  sequential_tree<A, O>(s, blockDim.x / 2, 32);
  if (threadIdx.x < 32) last_warp<A, O>(s);
  if (threadIdx.x == 0) out[blockIdx.x] = from_acc<Out>(s[0]);
}

// The completely unrolled tree of a kSize-thread block (#6, #7): dead steps vanish.
template <class T, class O, unsigned kSize>
__device__ __forceinline__ void complete_tree(T* s) {
  const unsigned tid = threadIdx.x;
  if constexpr (kSize >= 1024) {
    if (tid < 512) s[tid] = O::apply(s[tid], s[tid + 512]);
    __syncthreads();
  }
  if constexpr (kSize >= 512) {
    if (tid < 256) s[tid] = O::apply(s[tid], s[tid + 256]);
    __syncthreads();
  }
  if constexpr (kSize >= 256) {
    if (tid < 128) s[tid] = O::apply(s[tid], s[tid + 128]);
    __syncthreads();
  }
  if constexpr (kSize >= 128) {
    if (tid < 64) s[tid] = O::apply(s[tid], s[tid + 64]);
    __syncthreads();
  }
  if (tid < 32) last_warp<T, O>(s);
}

// #6 complete unrolling, block size a template parameter.
template <class In, class Out, class O, unsigned kSize>
__global__ void __launch_bounds__(kSize)
    smem_complete_unroll(const In* in, Out* out, std::size_t n) {
  using A = acc_t<In>;
  A* s = shared_array<A>();
  s[threadIdx.x] = load_two<In, O>(in, n, kSize);
  __syncthreads();
  complete_tree<A, O, kSize>(s);
  if (threadIdx.x == 0) out[blockIdx.x] = from_acc<Out>(s[0]);
}

// #7 multiple elements per thread: a grid-stride loop of first-adds (gridDim.x is capped by
// dispatch), then the complete unroll.
template <class In, class Out, class O, unsigned kSize>
__global__ void __launch_bounds__(kSize) smem_multi_element(const In* in, Out* out, std::size_t n) {
  using A = acc_t<In>;
  A* s = shared_array<A>();
  const std::size_t grid_size = std::size_t(kSize) * 2 * gridDim.x;
  A acc = O::template identity<A>();
  for (std::size_t i = std::size_t(blockIdx.x) * (kSize * 2) + threadIdx.x; i < n; i += grid_size) {
    acc = O::apply(acc, to_acc(in[i]));
    if (i + kSize < n) acc = O::apply(acc, to_acc(in[i + kSize]));
  }
  s[threadIdx.x] = acc;
  __syncthreads();
  complete_tree<A, O, kSize>(s);
  if (threadIdx.x == 0) out[blockIdx.x] = from_acc<Out>(s[0]);
}

}  // namespace xr::cuda::kernels
