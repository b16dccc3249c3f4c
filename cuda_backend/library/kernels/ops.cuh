// Reduction operators for device code, element types and their accumulators, and the
// (dtype, op) -> (T, A, O) instantiation switch. The operators match xr::apply on the host: min
// is `b < a ? b : a`, max `a < b ? b : a`; i32 and i64 sums are dispatched as u32 and u64 sums
// (compute_type), so integer sums wrap modulo 2^32 and 2^64.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cuda/functional>
#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/limits>
#include <string>

#include "launch.hpp"
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

// --- element types and their accumulators ---------------------------------------------------

// The accumulator of a storage type: float for the 16-bit floats (every partial, shared slot,
// tile total and look-back value of theirs is a float; the result is rounded once at the end),
// the type itself otherwise.
template <class T>
struct Accumulator {
  using type = T;
};
template <>
struct Accumulator<__half> {
  using type = float;
};
template <>
struct Accumulator<__nv_bfloat16> {
  using type = float;
};
template <class T>
using acc_t = typename Accumulator<T>::type;

// A stored element widened to its accumulator (exact).
template <class T>
__device__ __forceinline__ acc_t<T> to_acc(T v) {
  if constexpr (std::is_same_v<T, __half>)
    return __half2float(v);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
    return __bfloat162float(v);
  else
    return v;
}

// An accumulator value stored as Out: the one rounding of a 16-bit result, to nearest even.
template <class Out, class A>
__device__ __forceinline__ Out from_acc(A v) {
  if constexpr (std::is_same_v<Out, __half>)
    return __float2half_rn(v);
  else if constexpr (std::is_same_v<Out, __nv_bfloat16>)
    return __float2bfloat16_rn(v);
  else
    return v;
}

// Element i widened to the accumulator, or the op's identity past n.
template <class T, class O>
__device__ __forceinline__ acc_t<T> load_or_identity(const T* in, std::size_t i, std::size_t n) {
  return i < n ? to_acc(in[i]) : O::template identity<acc_t<T>>();
}

// 16 bytes of elements: what one vector load moves (4 x 32-bit, 8 x 16-bit, 2 x 64-bit).
template <class T>
struct alignas(16) Pack {
  static constexpr int kCount = 16 / sizeof(T);
  T e[kCount];
};

// One 16-byte load through the read-only path; `p` must be 16-byte aligned.
template <class T>
__device__ __forceinline__ Pack<T> load_pack(const T* p) {
  const uint4 raw = __ldg(reinterpret_cast<const uint4*>(p));
  Pack<T> out;
  memcpy(&out, &raw, sizeof(raw));  // a register move, not memory
  return out;
}

template <class T>
__device__ __forceinline__ void store_pack(T* p, const Pack<T>& v) {
  uint4 raw;
  memcpy(&raw, &v, sizeof(raw));
  *reinterpret_cast<uint4*>(p) = raw;
}

// The fold of a pack in the accumulator, adjacent pairs first ((x0 op x1) op (x2 op x3) for
// four): a short dependency chain, and for 32-bit types the order of the former fold4, so their
// float results stay bitwise what they were.
template <class T, class O>
__device__ __forceinline__ acc_t<T> fold_pack(const Pack<T>& v) {
  using A = acc_t<T>;
  A a[Pack<T>::kCount];
#pragma unroll
  for (int i = 0; i < Pack<T>::kCount; ++i) a[i] = to_acc(v.e[i]);
#pragma unroll
  for (int width = Pack<T>::kCount / 2; width > 0; width /= 2)
#pragma unroll
    for (int i = 0; i < width; ++i) a[i] = O::apply(a[2 * i], a[2 * i + 1]);
  return a[0];
}

// The libcu++ functor of O, for CUB's algorithms (lib/cub of both primitives). CUB derives its
// accumulator from the operator's result type, so for the 16-bit floats the functor is typed on
// the float accumulator: CUB then widens each __half / __nv_bfloat16 input, combines in float
// and rounds once on the store, as for a CUB user who asks for a float accumulator. The other
// types keep the transparent functors.
template <class O, class T>
auto cub_operator() {
  using A = acc_t<T>;
  constexpr bool kTyped = !std::is_same_v<A, T>;
  if constexpr (std::is_same_v<O, SumOp>)
    return std::conditional_t<kTyped, ::cuda::std::plus<A>, ::cuda::std::plus<>>{};
  else if constexpr (std::is_same_v<O, MinOp>)
    return std::conditional_t<kTyped, ::cuda::minimum<A>, ::cuda::minimum<>>{};
  else
    return std::conditional_t<kTyped, ::cuda::maximum<A>, ::cuda::maximum<>>{};
}

// Which element types a family instantiates: all of them, or the 32-bit ones the classic kernels
// ran (the in-place global/* kernels).
enum class TypeSet { all, bits32 };

// Calls f.template operator()<T, A, O>() with the device storage type T of (t, op), its
// accumulator A and the operator O. i32 and i64 sums run as u32 and u64 sums (same bits, so the
// wrap-around is defined behaviour); f16 and bf16 are CUDA's __half and __nv_bfloat16 (the host's
// xr::f16 / xr::bf16 have the same bits), accumulated in float.
template <TypeSet kSet = TypeSet::all, class F>
void with_type_op(DType t, Op op, F&& f) {
  const TypeOp c = compute_type(t, op);
  auto by_op = [&]<class T>() {
    using A = acc_t<T>;
    switch (c.op) {
      case Op::sum:
        if constexpr (!std::is_signed_v<T> || !std::is_integral_v<T>)
          return f.template operator()<T, A, SumOp>();
        break;
      case Op::min:
        return f.template operator()<T, A, MinOp>();
      case Op::max:
        return f.template operator()<T, A, MaxOp>();
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
    default:
      break;
  }
  if constexpr (kSet == TypeSet::all) {
    switch (c.dtype) {
      case DType::i64:
        return by_op.template operator()<std::int64_t>();
      case DType::u64:
        return by_op.template operator()<std::uint64_t>();
      case DType::f64:
        return by_op.template operator()<double>();
      case DType::f16:
        return by_op.template operator()<__half>();
      case DType::bf16:
        return by_op.template operator()<__nv_bfloat16>();
      default:
        break;
    }
  }
  throw Error(ErrorCategory::unsupported,
              "cuda: this variant has no kernel for " + std::string(to_string(t)));
}

// Shared memory of the block as T[]; one extern symbol for every T (alignment of the widest).
template <class T>
__device__ __forceinline__ T* shared_array() {
  extern __shared__ __align__(16) unsigned char xr_shared_bytes[];
  return reinterpret_cast<T*>(xr_shared_bytes);
}

}  // namespace xr::cuda::kernels
