// Core's radix schedule (xreduce/sort_plan.hpp) in CUDA's terms: a DigitPass becomes the digit a
// kernel extracts and the arrays it reads and writes.
#pragma once

#include "kernels/sort_radix.cuh"
#include "xreduce/sort_plan.hpp"

namespace xr::cuda::kernels {

// The digit of `pass`: its bits of the keys' sort bits.
template <class Bits>
DigitOf<Bits> digit_of(const KeyCodec<Bits>& codec, const DigitPass& pass) {
  return {codec, pass.shift, (1u << pass.width) - 1};
}

// The arrays of `pass` over the buffers `b`, with the digit it ranks by.
template <class Bits>
RadixPassArgs<Bits> pass_args(const PassBuffers<Bits>& b, const DigitPass& pass, std::size_t n,
                              const KeyCodec<Bits>& codec) {
  const auto keys_of = [&](sort::Buffer which) -> Bits* {
    return which == sort::Buffer::output ? b.keys_out : b.alt_keys;
  };
  const auto values_of = [&](sort::Buffer which) -> void* {
    return which == sort::Buffer::output ? b.values_out : b.alt_values;
  };
  RadixPassArgs<Bits> a{};
  a.keys_in = pass.reads == sort::Buffer::input ? b.keys_in : keys_of(pass.reads);
  a.keys_out = keys_of(pass.writes);
  if (b.values_in) {
    a.values_in = pass.reads == sort::Buffer::input ? b.values_in : values_of(pass.reads);
    a.values_out = values_of(pass.writes);
  }
  a.n = n;
  a.digit_of = digit_of(codec, pass);
  return a;
}

}  // namespace xr::cuda::kernels
