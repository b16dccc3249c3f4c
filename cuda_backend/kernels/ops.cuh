// Reduction operators for device code and the (dtype, op) -> (T, Op) instantiation switch.
// The operators match xr::apply on the host: min is `b < a ? b : a`, max `a < b ? b : a`;
// i32 sums are dispatched as u32 sums (compute_type), so integer sums wrap modulo 2^32.
#pragma once

#include <cuda/functional>
#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/limits>

#include "dispatch.hpp"
#include "xreduce/error.hpp"

namespace xr::cuda::kernels {

struct SumOp {
  template <class T>
  __host__ __device__ static T apply(T a, T b) {
    return a + b;
  }
  template <class T>
  __host__ __device__ static constexpr T identity() {
    return T(0);
  }
};

struct MinOp {
  template <class T>
  __host__ __device__ static T apply(T a, T b) {
    return b < a ? b : a;
  }
  template <class T>
  __host__ __device__ static constexpr T identity() {
    if constexpr (::cuda::std::numeric_limits<T>::has_infinity)
      return ::cuda::std::numeric_limits<T>::infinity();
    else
      return ::cuda::std::numeric_limits<T>::max();
  }
};

struct MaxOp {
  template <class T>
  __host__ __device__ static T apply(T a, T b) {
    return a < b ? b : a;
  }
  template <class T>
  __host__ __device__ static constexpr T identity() {
    if constexpr (::cuda::std::numeric_limits<T>::has_infinity)
      return -::cuda::std::numeric_limits<T>::infinity();
    else
      return ::cuda::std::numeric_limits<T>::lowest();
  }
};

// The libcu++ functor of O, for CUB's algorithms (lib/cub of both primitives).
template <class O>
auto cub_operator() {
  if constexpr (std::is_same_v<O, SumOp>)
    return ::cuda::std::plus<>{};
  else if constexpr (std::is_same_v<O, MinOp>)
    return ::cuda::minimum<>{};
  else
    return ::cuda::maximum<>{};
}

template <class T, class O>
__device__ __forceinline__ T load_or_identity(const T* in, std::size_t i, std::size_t n) {
  return i < n ? in[i] : O::template identity<T>();
}

// Calls f.template operator()<T, O>() for the compute type of (t, op): eight instantiations
// per kernel (i32 sum runs as u32 sum).
template <class F>
void with_type_op(DType t, Op op, F&& f) {
  const TypeOp c = compute_type(t, op);
  auto by_op = [&]<class T>() {
    switch (c.op) {
      case Op::sum:
        if constexpr (!std::is_same_v<T, std::int32_t>) return f.template operator()<T, SumOp>();
        break;
      case Op::min:
        return f.template operator()<T, MinOp>();
      case Op::max:
        return f.template operator()<T, MaxOp>();
    }
    throw Error(ErrorCategory::unsupported, "cuda: no kernel for this dtype and op");
  };
  switch (c.dtype) {
    case DType::i32:
      return by_op.template operator()<std::int32_t>();
    case DType::u32:
      return by_op.template operator()<std::uint32_t>();
    case DType::f32:
      return by_op.template operator()<float>();
  }
}

// Shared memory of the block as T[]; one extern symbol for every T (alignment of the widest).
template <class T>
__device__ __forceinline__ T* shared_array() {
  extern __shared__ __align__(16) unsigned char xr_shared_bytes[];
  return reinterpret_cast<T*>(xr_shared_bytes);
}

}  // namespace xr::cuda::kernels
