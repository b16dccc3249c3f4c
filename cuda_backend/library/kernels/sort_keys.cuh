// The bits a sort orders keys by, on the host and the device: a key's sort bits (the total order
// of xreduce/sort_keys.hpp: unsigned keys as they are, signed keys with the sign bit flipped,
// floats with the sign bit flipped when positive and every bit flipped when negative, every bit
// flipped again for a descending sort, and both float zeros as +0.0 ascending), so every sort
// kernel orders ascending by them.
// The kernels carry the keys' own bits and order them through a KeyCodec: one instantiation per
// key width serves all the dtypes of that width and both orders.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "xreduce/error.hpp"
#include "xreduce/primitive.hpp"
#include "xreduce/types.hpp"

namespace xr::cuda::kernels {

enum class KeyKind : std::uint8_t { unsigned_integer, signed_integer, floating };

inline KeyKind key_kind(DType t) {
  if (t == DType::u32 || t == DType::u64) return KeyKind::unsigned_integer;
  return is_integer(t) ? KeyKind::signed_integer : KeyKind::floating;
}

// The sort bits of a key of `Bits` (its unsigned type of the same width): the key's bits xor a
// mask chosen by the key's top bit. Both masks fold in the order: descending flips every bit,
// which reverses the order and keeps equal keys equal (so the sort stays stable). A float zero
// whose sort bits are the top bit clear and every other set (-0.0 ascending, +0.0 descending) takes
// the other zero's, the top bit alone: -0.0 and +0.0 are one key, as in CUB.
// The mask is chosen without a branch or a select: the key's top bit, spread over the word by an
// arithmetic shift, picks `set_differs` (the bits in which the two masks differ), three logic
// instructions a key where a select of the two costs two constant loads and a compare.
template <class Bits>
struct KeyCodec {
  static_assert(std::is_unsigned_v<Bits>, "the keys' bits");
  static constexpr unsigned kWidth = 8 * sizeof(Bits);
  static constexpr Bits kTop = static_cast<Bits>(Bits{1} << (kWidth - 1));
  Bits when_clear;   // xored into a key whose top bit is clear
  Bits set_differs;  // when_clear ^ the mask xored into a key whose top bit is set
  bool merge_zeros;  // float keys

  __host__ __device__ Bits sort_bits(Bits key) const {
    using Signed = std::make_signed_t<Bits>;
    const auto top = static_cast<Bits>(static_cast<Signed>(key) >> (kWidth - 1));  // 0 or ~0
    const auto s = static_cast<Bits>(key ^ when_clear ^ (top & set_differs));
    return merge_zeros && s == static_cast<Bits>(kTop - 1) ? kTop : s;
  }

  static KeyCodec make(KeyKind kind, SortOrder order) {
    const Bits sign = static_cast<Bits>(Bits{1} << (kWidth - 1));
    const Bits all = static_cast<Bits>(~Bits{0});
    const Bits order_flip = order == SortOrder::descending ? all : Bits{0};
    Bits clear = 0, set = 0;
    switch (kind) {
      case KeyKind::unsigned_integer:
        break;
      case KeyKind::signed_integer:
        clear = set = sign;
        break;
      case KeyKind::floating:
        clear = sign;
        set = all;
        break;
    }
    return {static_cast<Bits>(clear ^ order_flip), static_cast<Bits>(clear ^ set),
            kind == KeyKind::floating};
  }
};

// One radix digit of a key: `width` (1..8) bits of its sort bits from bit `shift`.
template <class Bits>
struct DigitOf {
  KeyCodec<Bits> codec;
  unsigned shift;
  unsigned mask;  // (1 << width) - 1

  __host__ __device__ unsigned operator()(Bits key) const {
    return static_cast<unsigned>(codec.sort_bits(key) >> shift) & mask;
  }
};

// The unsigned type of a key `bytes` wide.
template <std::size_t kBytes>
using BitsOfWidth =
    std::conditional_t<kBytes == 2, std::uint16_t,
                       std::conditional_t<kBytes == 4, std::uint32_t, std::uint64_t>>;

// Calls f.template operator()<Bits>() with the unsigned type of t's width: what the kernels of
// the radix and bitonic sorts are instantiated on.
template <class F>
void with_key_bits(DType t, F&& f) {
  switch (size_of(t)) {
    case 2:
      return f.template operator()<std::uint16_t>();
    case 4:
      return f.template operator()<std::uint32_t>();
    case 8:
      return f.template operator()<std::uint64_t>();
  }
  throw Error(ErrorCategory::unsupported, "cuda: no sort kernel for this key width");
}

// Calls f.template operator()<Key>() with the CUDA type of t's keys (__half, __nv_bfloat16 for
// the 16-bit floats): what CUB's radix sort takes, its own order derived from the type.
template <class F>
void with_key_type(DType t, F&& f) {
  visit_dtype(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, f16>)
      f.template operator()<__half>();
    else if constexpr (std::is_same_v<T, bf16>)
      f.template operator()<__nv_bfloat16>();
    else
      f.template operator()<T>();
  });
}

// The keys of a call: n, or the count on the device where there is one, at most n (the keys the
// grids were launched for).
__device__ __forceinline__ std::size_t keys_of_call(std::size_t n, const unsigned* count) {
  return count && std::size_t(*count) < n ? std::size_t(*count) : n;
}

}  // namespace xr::cuda::kernels
