#include "xreduce/reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <execution>
#include <numeric>

namespace xr {

Reference reference_reduce(HostView data, Op op) {
  Reference ref;
  ref.n = data.size;
  visit_element_dtype(data.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto xs = data.as<T>();
    if constexpr (is_float_v<T>) {
      HostAcc<T> acc = host_identity<T>(op);
      double abs_sum = 0;
      for (T x : xs) {
        const auto d = static_cast<HostAcc<T>>(x);
        abs_sum += std::fabs(static_cast<double>(d));
        acc = op == Op::sum ? acc + d : (op == Op::min ? std::fmin(acc, d) : std::fmax(acc, d));
      }
      ref.exact = static_cast<double>(acc);
      ref.abs_sum = abs_sum;
      ref.value = Value::of(narrow<T>(acc));
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
  return float_sum_bound(DType::f32, n, abs_sum, 0.0);
}

double float_sum_bound(DType t, std::size_t n, double abs_sum, double magnitude) {
  const double levels = std::ceil(std::log2(static_cast<double>(n < 2 ? 2 : n)));
  const DType acc = accumulator_of(t);
  double bound = (levels + 2.0) * std::ldexp(1.0, -fraction_bits(acc)) * abs_sum;
  if (acc != t) {
    // Rounding the float accumulator to the 16-bit type: half an ulp, at most twice (a pass that
    // adds a block prefix to an output it already rounded), plus the smallest subnormal.
    const double subnormal = visit_element_dtype(t, [](auto tag) -> double {
      using T = typename decltype(tag)::type;
      if constexpr (HalfFloat<T>)
        return static_cast<double>(T::from_bits(1));
      else
        return 0.0;
    });
    bound += std::ldexp(magnitude, -fraction_bits(t)) + subnormal;
  }
  return bound;
}

namespace {

// A float sum that came back infinite is right when the reference rounds to the same infinity,
// or when the exact value lies within `bound` of the type's overflow threshold (the largest finite
// value plus half its ulp): a 16-bit sum of 65519.9 in float and 65520.1 exactly round apart.
bool overflow_agrees(DType t, double got, double exact, double bound) {
  if (std::isnan(got)) return std::isnan(exact);
  const double threshold = visit_element_dtype(t, [](auto tag) -> double {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      const double max = static_cast<double>(std::numeric_limits<T>::max());
      return max + std::ldexp(1.0, std::ilogb(max) - std::numeric_limits<T>::digits);
    } else {
      return 0.0;
    }
  });
  return std::signbit(got) == std::signbit(exact) && std::fabs(exact) + bound >= threshold;
}

}  // namespace

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
  v.bound = float_sum_bound(got.dtype(), ref.n, ref.abs_sum, std::fabs(ref.exact));
  double g = got.as_double();
  v.error = std::fabs(g - ref.exact);
  v.ok =
      std::isfinite(g) ? v.error <= v.bound : overflow_agrees(got.dtype(), g, ref.exact, v.bound);
  if (!v.ok) {
    char extra[128];
    std::snprintf(extra, sizeof extra, " (|error| %.3g > bound %.3g)", v.error, v.bound);
    mismatch(extra);
  }
  return v;
}

}  // namespace xr

// ---- scan ------------------------------------------------------------------------------------

namespace xr {
namespace {

// Elements per parallel task of a scan check: 64K 4-byte elements (256 KiB, a core's L2), ~4K
// tasks at 2^28. The chunking changes only how the check is split, never its verdict.
constexpr std::size_t kScanCheckChunk = 64 * 1024;

template <class T>
HostAcc<T> acc_apply(Op op, HostAcc<T> a, T x) {
  return apply<HostAcc<T>>(op, a, static_cast<HostAcc<T>>(x));
}

std::size_t chunks_of(std::size_t n) {
  return (n + kScanCheckChunk - 1) / kScanCheckChunk;
}

// Calls f(c, begin, end) for every chunk c, in parallel.
template <class F>
void for_each_chunk(std::size_t n, F&& f) {
  std::vector<std::size_t> index(chunks_of(n));
  std::iota(index.begin(), index.end(), std::size_t{0});
  std::for_each(std::execution::par, index.begin(), index.end(), [&](std::size_t c) {
    const std::size_t begin = c * kScanCheckChunk;
    f(c, begin, std::min(n, begin + kScanCheckChunk));
  });
}

// What one chunk's check found.
struct ChunkFinding {
  std::size_t wrong = 0;
  std::size_t first = 0;  // index of the first wrong element (when wrong > 0)
  Value got, want;
  double error = 0, bound = 0;  // of the first wrong element, or of the closest to its bound
  double ratio = -1;            // error / bound of the closest element (float sums)
};

std::string value_text(const Value& v) {
  return v.to_string();
}

}  // namespace

HostArray reference_scan(HostView input, Op op, ScanKind kind) {
  HostArray out(input.dtype, input.size);
  visit_element_dtype(input.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto xs = input.as<T>();
    auto ys = out.as<T>();
    HostAcc<T> acc = host_identity<T>(op);
    for (std::size_t i = 0; i < xs.size(); ++i) {
      if (kind == ScanKind::exclusive) ys[i] = narrow<T>(acc);
      acc = acc_apply<T>(op, acc, xs[i]);
      if (kind == ScanKind::inclusive) ys[i] = narrow<T>(acc);
    }
  });
  return out;
}

ScanReference::ScanReference(HostView input, Op op, ScanKind kind)
    : input_(input), op_(op), kind_(kind) {
  const std::size_t chunks = chunks_of(input.size);
  visit_element_dtype(input.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto xs = input.as<T>();
    std::vector<HostAcc<T>> totals(chunks);
    std::vector<double> abs_totals(chunks);
    for_each_chunk(xs.size(), [&](std::size_t c, std::size_t begin, std::size_t end) {
      HostAcc<T> acc = host_identity<T>(op);
      double abs_sum = 0;
      for (std::size_t i = begin; i < end; ++i) {
        acc = acc_apply<T>(op, acc, xs[i]);
        if constexpr (is_float_v<T>) abs_sum += std::fabs(static_cast<double>(xs[i]));
      }
      totals[c] = acc;
      abs_totals[c] = abs_sum;
    });
    HostAcc<T> running = host_identity<T>(op);
    double abs_running = 0;
    for (std::size_t c = 0; c < chunks; ++c) {
      if constexpr (is_float_v<T>) {
        chunk_start_.push_back(running);
        chunk_abs_start_.push_back(abs_running);
      } else {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &running, sizeof(T));
        chunk_bits_.push_back(bits);
      }
      running = apply<HostAcc<T>>(op, running, totals[c]);
      abs_running += abs_totals[c];
    }
  });
}

namespace {

// What checking one output element against the running prefix found.
struct ElementCheck {
  bool ok = true;
  double error = 0, bound = 0;
};

// The bound per unit of A_i (the prefix's sum of |x|) and, for rounding to a 16-bit type, per
// unit of |prefix| and the smallest subnormal: float_sum_bound's terms, computed once.
struct ScanBound {
  double per_abs = 0, per_value = 0, subnormal = 0;
  ScanBound(DType t, std::size_t n)
      : per_abs(float_sum_bound(t, n, 1.0, 0.0) - float_sum_bound(t, 2, 0.0, 0.0)),
        per_value(float_sum_bound(t, 2, 0.0, 1.0) - float_sum_bound(t, 2, 0.0, 0.0)),
        subnormal(float_sum_bound(t, 2, 0.0, 0.0)) {}
};

template <class T>
ElementCheck check_element(T y, HostAcc<T> running, double abs_running, Op op, DType t,
                           const ScanBound& b) {
  ElementCheck c;
  if constexpr (is_float_v<T>) {
    const double g = static_cast<double>(y);
    if (op != Op::sum) {
      c.ok = g == running;  // min/max are exact; -0 == +0
      return c;
    }
    const double want = static_cast<double>(running);
    c.bound = b.per_abs * abs_running + b.per_value * std::fabs(want) + b.subnormal;
    c.error = std::fabs(g - want);
    c.ok = std::isfinite(g) ? c.error <= c.bound : overflow_agrees(t, g, want, c.bound);
  } else {
    c.ok = y == running;
  }
  return c;
}

// Records element i's check in its chunk's finding: the first wrong one, else the closest to
// its bound.
template <class T>
void record(ChunkFinding& f, std::size_t i, T y, HostAcc<T> running, const ElementCheck& c) {
  if (c.ok) {
    if (c.bound > 0 && c.error / c.bound > f.ratio && !f.wrong) {
      f.ratio = c.error / c.bound;
      f.error = c.error;
      f.bound = c.bound;
    }
    return;
  }
  if (f.wrong++ > 0) return;
  f.first = i;
  f.got = Value::of(y);
  f.want = Value::of(narrow<T>(running));
  f.error = is_float_v<T> ? std::fabs(static_cast<double>(y) - static_cast<double>(running)) : 0.0;
  f.bound = c.bound;
}

// The verdict from every chunk's finding.
Verdict verdict_of(const std::vector<ChunkFinding>& found, std::size_t n) {
  Verdict v;
  std::size_t wrong = 0;
  const ChunkFinding* first = nullptr;
  const ChunkFinding* closest = nullptr;
  for (const ChunkFinding& f : found) {
    wrong += f.wrong;
    if (f.wrong && !first) first = &f;
    if (!closest || f.ratio > closest->ratio) closest = &f;
  }
  v.ok = wrong == 0;
  if (first) {
    v.error = first->error;
    v.bound = first->bound;
    char buf[320];
    std::snprintf(buf, sizeof buf, "%zu of %zu elements wrong; first at index %zu: got %s, want %s",
                  wrong, n, first->first, value_text(first->got).c_str(),
                  value_text(first->want).c_str());
    v.message = buf;
    if (first->bound > 0) {
      std::snprintf(buf, sizeof buf, " (|error| %.3g > bound %.3g)", first->error, first->bound);
      v.message += buf;
    }
  } else if (closest && closest->ratio >= 0) {
    v.error = closest->error;
    v.bound = closest->bound;
  }
  return v;
}

}  // namespace

Verdict ScanReference::validate(HostView got) const {
  if (got.dtype != input_.dtype || got.size != input_.size) {
    Verdict v;
    v.message = "output is " + std::to_string(got.size) + " " + std::string(to_string(got.dtype)) +
                " elements, the input " + std::to_string(input_.size) + " " +
                std::string(to_string(input_.dtype));
    return v;
  }
  const std::size_t n = input_.size;
  const ScanBound bound(input_.dtype, n);
  std::vector<ChunkFinding> found(chunks_of(n));
  visit_element_dtype(input_.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto xs = input_.as<T>();
    auto ys = got.as<T>();
    for_each_chunk(n, [&](std::size_t c, std::size_t begin, std::size_t end) {
      HostAcc<T> running;
      double abs_running = 0;
      if constexpr (is_float_v<T>) {
        running = static_cast<HostAcc<T>>(chunk_start_[c]);
        abs_running = chunk_abs_start_[c];
      } else {
        std::memcpy(&running, &chunk_bits_[c], sizeof(T));
      }
      const auto advance = [&](std::size_t i) {
        running = acc_apply<T>(op_, running, xs[i]);
        if constexpr (is_float_v<T>) abs_running += std::fabs(static_cast<double>(xs[i]));
      };
      for (std::size_t i = begin; i < end; ++i) {
        if (kind_ == ScanKind::inclusive) advance(i);
        record(found[c], i, ys[i], running,
               check_element<T>(ys[i], running, abs_running, op_, input_.dtype, bound));
        if (kind_ == ScanKind::exclusive) advance(i);
      }
    });
  });
  return verdict_of(found, n);
}

std::optional<Value> ScanReference::last() const {
  if (input_.size == 0) return std::nullopt;
  return visit_element_dtype(input_.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto xs = input_.as<T>();
    const std::size_t c = chunks_of(xs.size()) - 1;
    HostAcc<T> running;
    if constexpr (is_float_v<T>)
      running = static_cast<HostAcc<T>>(chunk_start_[c]);
    else
      std::memcpy(&running, &chunk_bits_[c], sizeof(T));
    const std::size_t last = kind_ == ScanKind::inclusive ? xs.size() : xs.size() - 1;
    for (std::size_t i = c * kScanCheckChunk; i < last; ++i)
      running = acc_apply<T>(op_, running, xs[i]);
    return std::optional<Value>(Value::of(narrow<T>(running)));
  });
}

Verdict validate_scan(HostView input, HostView got, Op op, ScanKind kind) {
  return ScanReference(input, op, kind).validate(got);
}

}  // namespace xr
