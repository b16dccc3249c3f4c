#include "xreduce/check.hpp"

#include <cstring>

namespace xr {

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
  if (array.size() == 0) return std::nullopt;
  return visit_element_dtype(array.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return Value::of(primitive == Primitive::sort ? array.as<T>().front() : array.as<T>().back());
  });
}

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
  }
}

Verdict Expectation::check(const Outcome& got) const {
  if (reduce_) return validate(got.value, *reduce_, operation_.op);
  if (sort_) return sort_->validate(got.array.view(), operation_.pairs() ? &got.values : nullptr);
  return scan_->validate(got.array.view());
}

std::optional<Value> Expectation::headline() const {
  if (reduce_) return reduce_->value;
  if (sort_) return sort_->first();
  return scan_->last();
}

}  // namespace xr
