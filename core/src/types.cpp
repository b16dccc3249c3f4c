#include "xreduce/types.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace xr {

std::string_view to_string(DType t) {
  switch (t) {
    case DType::i32:
      return "i32";
    case DType::u32:
      return "u32";
    case DType::f32:
      return "f32";
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

double Value::as_double() const {
  return visit_dtype(dtype_, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return static_cast<double>(get<T>());
  });
}

std::string Value::to_string() const {
  return visit_dtype(dtype_, [&](auto tag) -> std::string {
    using T = typename decltype(tag)::type;
    T v = get<T>();
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(v)) return "nan";
      if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    }
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);  // shortest round-trip for floats
    return ec == std::errc{} ? std::string(buf, end) : std::string("?");
  });
}

HostArray::HostArray(DType t, std::size_t n)
    : dtype_(t), size_(n), storage_((n * size_of(t) + sizeof(Chunk) - 1) / sizeof(Chunk)) {}

}  // namespace xr
