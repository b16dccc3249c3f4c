#include "xreduce/types.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace xr {

std::string_view to_string(DType t) {
  switch (t) {
    case DType::i32:
      return "i32";
    case DType::u32:
      return "u32";
    case DType::f32:
      return "f32";
    case DType::i64:
      return "i64";
    case DType::u64:
      return "u64";
    case DType::f64:
      return "f64";
    case DType::f16:
      return "f16";
    case DType::bf16:
      return "bf16";
    case DType::u8:
      return "u8";
    case DType::u16:
      return "u16";
  }
  return "?";
}

std::string_view to_string(Op op) {
  switch (op) {
    case Op::sum:
      return "sum";
    case Op::min:
      return "min";
    case Op::max:
      return "max";
  }
  return "?";
}

std::optional<DType> parse_dtype(std::string_view s) {
  for (DType t : kAllDTypes)
    if (to_string(t) == s) return t;
  return std::nullopt;
}

std::optional<Op> parse_op(std::string_view s) {
  for (Op op : kAllOps)
    if (to_string(op) == s) return op;
  return std::nullopt;
}

std::size_t size_of(DType t) {
  return visit_dtype(t, [](auto tag) { return sizeof(typename decltype(tag)::type); });
}

bool is_integer(DType t) {
  return visit_dtype(t, [](auto tag) { return std::is_integral_v<typename decltype(tag)::type>; });
}

bool is_float(DType t) {
  return visit_dtype(t, [](auto tag) { return is_float_v<typename decltype(tag)::type>; });
}

int fraction_bits(DType t) {
  return visit_dtype(t, [](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>)
      return std::numeric_limits<T>::digits - 1;
    else
      return 0;
  });
}

DType accumulator_of(DType t) {
  return t == DType::f16 || t == DType::bf16 ? DType::f32 : t;
}

double Value::as_double() const {
  return visit_dtype(dtype_, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return static_cast<double>(get<T>());
  });
}

std::string Value::to_string() const {
  return visit_dtype(dtype_, [&](auto tag) -> std::string {
    using T = typename decltype(tag)::type;
    char buf[64];
    std::to_chars_result r{buf, std::errc{}};
    if constexpr (is_float_v<T>) {
      const double v = static_cast<double>(get<T>());
      if (std::isnan(v)) return "nan";
      if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
      // Shortest text that reads back as the same value of T (what NumPy prints).
      if constexpr (HalfFloat<T>) {
        for (int digits = 1; digits <= 9; ++digits) {
          r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, digits);
          if (T(std::strtod(std::string(buf, r.ptr).c_str(), nullptr)).bits == get<T>().bits) break;
        }
      } else
        r = std::to_chars(buf, buf + sizeof buf, get<T>());
    } else {
      r = std::to_chars(buf, buf + sizeof buf, get<T>());
    }
    return r.ec == std::errc{} ? std::string(buf, r.ptr) : std::string("?");
  });
}

HostArray::HostArray(DType t, std::size_t n)
    : dtype_(t), size_(n), storage_((n * size_of(t) + sizeof(Chunk) - 1) / sizeof(Chunk)) {}

}  // namespace xr
