// A histogram's bin rule on the device, per sample type, and the counter adds every histogram
// kernel shares. The rule is core's EvenBins (xreduce/histogram.hpp) bit for bit, over the
// constants the plan computed on the host by EvenBins's formulas (histogram::BinParams):
//   floats: s in [lower, upper) (a NaN fails both), (s - lower) * scale in the sample's type,
//     each step rounded to nearest (__fsub_rn, __fmul_rn: never fused into a multiply-add),
//     truncated to an integer, counted nowhere at `bins` or past it;
//   integers: d = s - lower taken modulo 2^32 from the sample's low 32 bits, in range when
//     d <= width - 1 (a sample below lower wraps past it: every type's samples lie within 2^32 of
//     its levels), then d * bins / width in the plan's IntegerPath, each path exact.
// The path is fixed at compile time inside a kernel by BinRule::visit, so a kernel's loop holds
// no branch on it; one instantiation per sample type serves all three paths.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "histogram_dispatch.hpp"
#include "kernels/warp_reduce.cuh"

namespace xr::cuda::kernels {

inline constexpr int kNoBin = -1;  // a sample counted nowhere

// Float samples' rule. `bins` <= 2^24 and the product below is at most about bins (its factors
// are each at most the width and bins / width, rounded), so the truncation to int is exact; a
// scale that overflowed to infinity gives a product past every bin (counted nowhere), or NaN at
// s == lower (bin 0, as CUB's static_cast<int> gives on the device).
template <class T>
struct FloatBinOf {
  T lower, upper, scale;
  int bins;

  __device__ __forceinline__ int operator()(T s) const {
    if (!(s >= lower && s < upper)) return kNoBin;
    int bin;
    if constexpr (std::is_same_v<T, float>)
      bin = __float2int_rz(__fmul_rn(__fsub_rn(s, lower), scale));
    else
      bin = __double2int_rz(__dmul_rn(__dsub_rn(s, lower), scale));
    return bin < bins ? bin : kNoBin;
  }
};

// Integer samples' constants: lower's low 32 bits, the width less one, the bins, the width.
struct IntegerBins {
  std::uint32_t offset;
  std::uint32_t last;  // width - 1: the largest d in range
  std::uint32_t bins;
  std::uint64_t width;  // 1 to 2^32
};

// Integer samples' rule on path P (histogram::IntegerPath says why each is exact).
template <histogram::IntegerPath P>
struct IntegerBinOf {
  IntegerBins c;

  template <class T>
  __device__ __forceinline__ int operator()(T s) const {
    const std::uint32_t d = static_cast<std::uint32_t>(s) - c.offset;
    if (d > c.last) return kNoBin;
    if constexpr (P == histogram::IntegerPath::identity)
      return static_cast<int>(d);
    else if constexpr (P == histogram::IntegerPath::narrow)
      return static_cast<int>(d * c.bins / static_cast<std::uint32_t>(c.width));
    else
      return static_cast<int>(std::uint64_t{d} * c.bins / c.width);
  }
};

// The rule for samples of type T, as a kernel argument (built on the host from the plan's
// constants). visit(f) calls f(bin_of) once, bin_of a callable T -> bin or kNoBin whose integer
// path is a template argument.
template <class T, bool = std::is_floating_point_v<T>>
struct BinRule {
  using Sample = T;
  IntegerBins c;
  histogram::IntegerPath path;

  static BinRule of(const histogram::BinParams& p) {
    return {{p.offset, static_cast<std::uint32_t>(p.width - 1), p.bins, p.width}, p.path};
  }
  template <class F>
  __device__ __forceinline__ void visit(F&& f) const {
    switch (path) {
      case histogram::IntegerPath::identity:
        return f(IntegerBinOf<histogram::IntegerPath::identity>{c});
      case histogram::IntegerPath::narrow:
        return f(IntegerBinOf<histogram::IntegerPath::narrow>{c});
      case histogram::IntegerPath::wide:
        break;
    }
    return f(IntegerBinOf<histogram::IntegerPath::wide>{c});
  }
};

template <class T>
struct BinRule<T, true> {
  using Sample = T;
  FloatBinOf<T> rule;

  // The plan's levels and scale are values of T held in doubles: converting back is exact.
  static BinRule of(const histogram::BinParams& p) {
    return {{static_cast<T>(p.lower), static_cast<T>(p.upper), static_cast<T>(p.scale),
             static_cast<int>(p.bins)}};
  }
  template <class F>
  __device__ __forceinline__ void visit(F&& f) const {
    f(rule);
  }
};

// The output's counters, u32 or u64 (desc.levels.counts), as one kernel argument: the width is a
// uniform branch at each add rather than a second instantiation of every kernel. Adds wrap
// modulo the counter's width, as an accumulating caller's counts do.
struct Counters {
  void* p;
  bool wide;

  __device__ __forceinline__ void add(std::size_t bin, unsigned c) const {
    if (wide)
      atomicAdd(static_cast<unsigned long long*>(p) + bin, static_cast<unsigned long long>(c));
    else
      atomicAdd(static_cast<unsigned*>(p) + bin, c);
  }
  // The counters from `first` on (another copy of the bins).
  __host__ __device__ Counters from(std::size_t first) const {
    return {static_cast<char*>(p) + first * (wide ? 8 : 4), wide};
  }
};

// The samples of a call: n, or the count on the device where there is one, at most n (the
// samples the grids were launched for).
__device__ __forceinline__ std::size_t samples_of_call(std::size_t n, const unsigned* count) {
  return count && std::size_t(*count) < n ? std::size_t(*count) : n;
}

// counts[b] = (accumulate ? counts[b] : 0) + the sum of bin b over `copies` copies of the bins,
// `bins` counters apart, for every bin b: one thread a bin, no atomics (a bin has one writer).
template <class Counter, int kBlock>
__global__ void __launch_bounds__(kBlock)
    histogram_sum_copies(const Counter* __restrict__ copies, unsigned ncopies, unsigned bins,
                         Counter* __restrict__ counts, bool accumulate) {
  const std::size_t stride = std::size_t(gridDim.x) * kBlock;
  for (std::size_t b = std::size_t(blockIdx.x) * kBlock + threadIdx.x; b < bins; b += stride) {
    Counter sum = accumulate ? counts[b] : Counter{0};
    for (unsigned c = 0; c < ncopies; ++c) sum += copies[std::size_t(c) * bins + b];
    counts[b] = sum;
  }
}

// Calls f.template operator()<Counter>() with the C++ type of the counters of `c`.
template <class F>
void with_counter_type(HistogramCounts c, F&& f) {
  if (c == HistogramCounts::u64)
    f.template operator()<unsigned long long>();
  else
    f.template operator()<unsigned>();
}

// Calls f.template operator()<T>() with the C++ type of a histogram's samples of type `t`.
template <class F>
void with_sample_type(DType t, F&& f) {
  visit_histogram_sample(t,
                         [&](auto tag) { f.template operator()<typename decltype(tag)::type>(); });
}

}  // namespace xr::cuda::kernels
