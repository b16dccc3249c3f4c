// Element types, reduction operators and the typed scalar that carries a result.
// API-neutral: no CUDA or Vulkan header may be included from core/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "xreduce/error.hpp"
#include "xreduce/half.hpp"

namespace xr {

// Element types. Adding one means: a new enumerator, a row in kAllDTypes, a case in visit_dtype
// and a DTypeOf; every switch below is exhaustive so the compiler finds the rest.
enum class DType : std::uint8_t { i32, u32, f32, i64, u64, f64, f16, bf16, u8, u16 };
inline constexpr DType kAllDTypes[] = {DType::i32, DType::u32, DType::f32,  DType::i64, DType::u64,
                                       DType::f64, DType::f16, DType::bf16, DType::u8,  DType::u16};
// The elements reduce, scan and sort take: every type but the 8- and 16-bit integers, which are
// a histogram's samples (pixels, bytes of text) only.
inline constexpr DType kElementDTypes[] = {DType::i32, DType::u32, DType::f32, DType::i64,
                                           DType::u64, DType::f64, DType::f16, DType::bf16};
// A histogram's sample types (cub::DeviceHistogram's: 8- and 16-bit pixels, 32-bit integers and
// floats, doubles).
inline constexpr DType kHistogramSampleDTypes[] = {DType::u8,  DType::u16, DType::i32,
                                                   DType::u32, DType::f32, DType::f64};
// The 32-bit types every variant runs (and the classic in-place reduction kernels keep to).
inline constexpr DType k32BitDTypes[] = {DType::i32, DType::u32, DType::f32};

enum class Op : std::uint8_t { sum, min, max };
inline constexpr Op kAllOps[] = {Op::sum, Op::min, Op::max};

std::string_view to_string(DType t);
std::string_view to_string(Op op);
std::optional<DType> parse_dtype(std::string_view s);
std::optional<Op> parse_op(std::string_view s);
std::size_t size_of(DType t);
bool is_integer(DType t);
bool is_float(DType t);
// Fraction bits of a float type's significand (f16 10, bf16 7, f32 23, f64 52); 0 for integers.
int fraction_bits(DType t);
// The type device accumulators use for t (README, "Data types"): f32 for f16 and bf16, whose
// sums are accumulated in float and rounded once at the end (what CUB's DeviceReduce with a float
// accumulator and PyTorch give); t itself for every other type.
DType accumulator_of(DType t);

// Float types, the host's 16-bit ones included (std::is_floating_point_v is false for those).
template <class T>
inline constexpr bool is_float_v = std::is_floating_point_v<T> || HalfFloat<T>;

template <class T>
struct DTypeOf;
template <>
struct DTypeOf<std::int32_t> {
  static constexpr DType value = DType::i32;
};
template <>
struct DTypeOf<std::uint32_t> {
  static constexpr DType value = DType::u32;
};
template <>
struct DTypeOf<float> {
  static constexpr DType value = DType::f32;
};

template <>
struct DTypeOf<std::int64_t> {
  static constexpr DType value = DType::i64;
};
template <>
struct DTypeOf<std::uint64_t> {
  static constexpr DType value = DType::u64;
};
template <>
struct DTypeOf<double> {
  static constexpr DType value = DType::f64;
};
template <>
struct DTypeOf<std::uint8_t> {
  static constexpr DType value = DType::u8;
};
template <>
struct DTypeOf<std::uint16_t> {
  static constexpr DType value = DType::u16;
};
template <>
struct DTypeOf<f16> {
  static constexpr DType value = DType::f16;
};
template <>
struct DTypeOf<bf16> {
  static constexpr DType value = DType::bf16;
};

template <class T>
struct TypeTag {
  using type = T;
};

// Calls f(TypeTag<T>{}) with the C++ type of `t`, one of kElementDTypes: the visit of reduce,
// scan and sort, whose templates are not built for a histogram's 8- and 16-bit samples.
// Error(unsupported) for those (a variant refuses them before, by what it claims).
template <class F>
decltype(auto) visit_element_dtype(DType t, F&& f) {
  switch (t) {
    case DType::i32:
      return f(TypeTag<std::int32_t>{});
    case DType::u32:
      return f(TypeTag<std::uint32_t>{});
    case DType::f32:
      return f(TypeTag<float>{});
    case DType::i64:
      return f(TypeTag<std::int64_t>{});
    case DType::u64:
      return f(TypeTag<std::uint64_t>{});
    case DType::f64:
      return f(TypeTag<double>{});
    case DType::f16:
      return f(TypeTag<f16>{});
    case DType::bf16:
      return f(TypeTag<bf16>{});
    case DType::u8:
    case DType::u16:
      break;
  }
  throw Error(ErrorCategory::unsupported,
              "reduce, scan and sort do not take 8- or 16-bit integers (a histogram's samples)");
}

// Calls f(TypeTag<T>{}) with the C++ type of any `t`; with visit_element_dtype, the one place
// that maps DType to a type.
template <class F>
decltype(auto) visit_dtype(DType t, F&& f) {
  if (t == DType::u8) return f(TypeTag<std::uint8_t>{});
  if (t == DType::u16) return f(TypeTag<std::uint16_t>{});
  return visit_element_dtype(t, std::forward<F>(f));
}

// The identity of `op` for T: 0 for sum, the largest T for min, the smallest for max
// (+inf/-inf for floats, so min/max of an empty float array is the identity).
template <class T>
constexpr T identity(Op op) {
  switch (op) {
    case Op::sum:
      return T(0);
    case Op::min:
      if constexpr (is_float_v<T>) return std::numeric_limits<T>::infinity();
      return std::numeric_limits<T>::max();
    case Op::max:
      if constexpr (is_float_v<T>)
        return T(-static_cast<double>(std::numeric_limits<T>::infinity()));
      return std::numeric_limits<T>::lowest();
  }
  return T(0);
}

// Applies `op` the way every backend must: integer sums wrap modulo 2^32 or 2^64 (computed in
// unsigned arithmetic, so no signed-overflow UB), float sums round to the type. Not for f16/bf16,
// which are only ever combined in a wider accumulator (HostAcc, accumulator_of).
template <class T>
constexpr T apply(Op op, T a, T b) {
  switch (op) {
    case Op::sum:
      if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
      } else {
        return a + b;
      }
    case Op::min:
      return b < a ? b : a;
    case Op::max:
      return a < b ? b : a;
  }
  return a;
}

// The host's accumulator for T: double for f16, bf16 and f32, long double for f64 (64-bit
// significand on x86: the f64 reference stays exact to well past 2^32 elements), so the host
// reference and the CPU backend are the most accurate results; T itself for integers, whose sums
// wrap like the GPUs'.
template <class T>
using HostAcc = std::conditional_t<std::is_same_v<T, double>, long double,
                                   std::conditional_t<is_float_v<T>, double, T>>;

template <class T>
HostAcc<T> host_identity(Op op) {
  return static_cast<HostAcc<T>>(identity<T>(op));
}

// An accumulator value back in T: float types round once, to nearest even.
template <class T, class A>
T narrow(A acc) {
  if constexpr (HalfFloat<T>)
    return T(static_cast<double>(acc));
  else
    return static_cast<T>(acc);
}

// Calls f(std::integral_constant<Op, op>{}): a loop over elements written inside f is then
// specialised for each operator.
template <class F>
decltype(auto) with_op_constant(Op op, F&& f) {
  switch (op) {
    case Op::sum:
      return f(std::integral_constant<Op, Op::sum>{});
    case Op::min:
      return f(std::integral_constant<Op, Op::min>{});
    case Op::max:
      return f(std::integral_constant<Op, Op::max>{});
  }
  return f(std::integral_constant<Op, Op::sum>{});  // unreachable: the switch is exhaustive
}

// A typed scalar: the result of a reduction. Stores the bits of the value, so two Values compare
// bitwise (what the determinism check needs).
class Value {
 public:
  Value() = default;
  template <class T>
  static Value of(T v) {
    Value out;
    out.dtype_ = DTypeOf<T>::value;
    static_assert(sizeof(T) <= sizeof(out.bits_));
    std::memcpy(&out.bits_, &v, sizeof(T));
    return out;
  }
  // The value of `t` whose bytes (size_of(t) of them) `bytes` points at: a result read back.
  static Value from_bytes(DType t, const void* bytes) {
    return visit_dtype(t, [&](auto tag) {
      typename decltype(tag)::type v;
      std::memcpy(&v, bytes, sizeof v);
      return of(v);
    });
  }
  static Value identity_of(DType t, Op op) {
    return visit_dtype(t, [&](auto tag) { return of(identity<typename decltype(tag)::type>(op)); });
  }
  // A reduce of `t` from its accumulator (accumulator_of(t)): f16 and bf16 come back as float
  // and are rounded once, here; every other type is its own accumulator.
  static Value from_accumulator(DType t, const Value& accumulated) {
    return visit_dtype(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (HalfFloat<T>)
        return of(narrow<T>(accumulated.get<float>()));
      else
        return accumulated;
    });
  }

  DType dtype() const { return dtype_; }
  template <class T>
  T get() const {
    T v;
    std::memcpy(&v, &bits_, sizeof(T));
    return v;
  }
  double as_double() const;
  std::string to_string() const;  // shortest round-trip text for floats
  bool bitwise_equal(const Value& o) const { return dtype_ == o.dtype_ && bits_ == o.bits_; }

 private:
  DType dtype_ = DType::i32;
  std::uint64_t bits_ = 0;
};

// A read-only view of typed host elements.
struct HostView {
  DType dtype = DType::i32;
  const void* data = nullptr;
  std::size_t size = 0;  // elements

  std::size_t bytes() const { return size * size_of(dtype); }
  template <class T>
  std::span<const T> as() const {
    return {static_cast<const T*>(data), size};
  }
};

// Owned, typed host elements (16-byte aligned storage).
class HostArray {
 public:
  HostArray() = default;
  HostArray(DType t, std::size_t n);
  DType dtype() const { return dtype_; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * size_of(dtype_); }
  void* data() { return storage_.data(); }
  const void* data() const { return storage_.data(); }
  template <class T>
  std::span<T> as() {
    return {static_cast<T*>(data()), size_};
  }
  template <class T>
  std::span<const T> as() const {
    return {static_cast<const T*>(data()), size_};
  }
  HostView view() const { return {dtype_, data(), size_}; }

 private:
  struct alignas(16) Chunk {
    std::byte b[16];
  };
  DType dtype_ = DType::i32;
  std::size_t size_ = 0;
  std::vector<Chunk> storage_;
};

}  // namespace xr
