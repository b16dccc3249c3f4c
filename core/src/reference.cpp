#include "xreduce/reference.hpp"

#include <cmath>
#include <cstdio>

namespace xr {

Reference reference_reduce(HostView data, Op op) {
  Reference ref;
  ref.n = data.size;
  visit_dtype(data.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto xs = data.as<T>();
    if constexpr (std::is_floating_point_v<T>) {
      double acc = op == Op::sum ? 0.0 : static_cast<double>(identity<T>(op));
      double abs_sum = 0;
      for (T x : xs) {
        double d = x;
        abs_sum += std::fabs(d);
        acc = op == Op::sum ? acc + d : (op == Op::min ? std::fmin(acc, d) : std::fmax(acc, d));
      }
      ref.exact = acc;
      ref.abs_sum = abs_sum;
      ref.value = Value::of(static_cast<T>(acc));
    } else {
      T acc = identity<T>(op);
      for (T x : xs) acc = apply(op, acc, x);
      ref.value = Value::of(acc);
      ref.exact = static_cast<double>(acc);
    }
  });
  return ref;
}

double float_sum_bound(std::size_t n, double abs_sum) {
  double levels = std::ceil(std::log2(static_cast<double>(n < 2 ? 2 : n)));
  return (levels + 2.0) * std::ldexp(1.0, -23) * abs_sum;
}

Verdict validate(const Value& got, const Reference& ref, Op op) {
  Verdict v;
  auto mismatch = [&](const char* extra) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "got %s, expected %s%s", got.to_string().c_str(),
                  ref.value.to_string().c_str(), extra);
    v.message = buf;
  };
  if (got.dtype() != ref.value.dtype()) {
    v.message = "result dtype " + std::string(to_string(got.dtype())) + " differs from input " +
                std::string(to_string(ref.value.dtype()));
    return v;
  }
  if (is_integer(got.dtype()) || op != Op::sum) {
    v.ok = got.bitwise_equal(ref.value) ||
           (!is_integer(got.dtype()) && got.as_double() == ref.value.as_double());  // -0 == +0
    if (!v.ok) {
      v.error = std::fabs(got.as_double() - ref.exact);
      mismatch("");
    }
    return v;
  }
  v.bound = float_sum_bound(ref.n, ref.abs_sum);
  double g = got.as_double();
  v.error = std::fabs(g - ref.exact);
  v.ok = std::isfinite(g) ? v.error <= v.bound : g == ref.exact;
  if (!v.ok) {
    char extra[128];
    std::snprintf(extra, sizeof extra, " (|error| %.3g > bound %.3g)", v.error, v.bound);
    mismatch(extra);
  }
  return v;
}

}  // namespace xr
