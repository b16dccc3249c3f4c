#include "xreduce/check.hpp"

#include <cstring>
#include <numeric>

namespace xr {

namespace {

// The sum of a histogram's counts (u32 or u64 counters), in 64 bits.
std::uint64_t counts_sum(const HostArray& counts) {
  const auto sum = [](auto span) {
    return std::accumulate(span.begin(), span.end(), std::uint64_t{0});
  };
  if (counts.size() == 0) return 0;
  return counts.dtype() == DType::u64 ? sum(counts.as<std::uint64_t>())
                                      : sum(counts.as<std::uint32_t>());
}

}  // namespace

bool Outcome::bitwise_equal(const Outcome& other) const {
  if (array.size() != other.array.size() || array.dtype() != other.array.dtype()) return false;
  if (array.bytes() && std::memcmp(array.data(), other.array.data(), array.bytes()) != 0)
    return false;
  if (values.size() != other.values.size() ||
      (values.bytes() && std::memcmp(values.data(), other.values.data(), values.bytes()) != 0))
    return false;
  return value.bitwise_equal(other.value);
}

std::optional<Value> Outcome::headline(Primitive primitive) const {
  if (primitive == Primitive::reduce) return value;
  if (primitive == Primitive::histogram) return Value::of(counts_sum(array));
  if (array.size() == 0) return std::nullopt;
  return visit_element_dtype(array.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return Value::of(primitive == Primitive::sort ? array.as<T>().front() : array.as<T>().back());
  });
}

namespace {

Verdict validate_counts(const HistogramReference& reference, const HostArray& counts) {
  if (counts.dtype() == DType::u64) return reference.validate(counts.as<std::uint64_t>());
  if (counts.dtype() == DType::u32) return reference.validate(counts.as<std::uint32_t>());
  return {.message =
              "a histogram's counts are u32 or u64, not " + std::string(to_string(counts.dtype()))};
}

}  // namespace

Expectation::Expectation(HostView input, const Operation& operation) : operation_(operation) {
  switch (operation.primitive) {
    case Primitive::reduce:
      reduce_ = reference_reduce(input, operation.op);
      break;
    case Primitive::scan:
      scan_.emplace(input, operation.op, operation.scan);
      break;
    case Primitive::sort:
      sort_.emplace(input, operation.order, operation.bits);
      break;
    case Primitive::histogram:
      histogram_.emplace(input, operation.levels);
      break;
  }
}

Verdict Expectation::check(const Outcome& got) const {
  if (reduce_) return validate(got.value, *reduce_, operation_.op);
  if (sort_) return sort_->validate(got.array.view(), operation_.pairs() ? &got.values : nullptr);
  if (histogram_) return validate_counts(*histogram_, got.array);
  return scan_->validate(got.array.view());
}

std::optional<Value> Expectation::headline() const {
  if (reduce_) return reduce_->value;
  if (sort_) return sort_->first();
  if (histogram_) return Value::of(histogram_->counted());
  return scan_->last();
}

}  // namespace xr
