#include "xreduce/check.hpp"

#include <cstring>

namespace xr {

bool Outcome::bitwise_equal(const Outcome& other) const {
  if (array.size() != other.array.size() || array.dtype() != other.array.dtype()) return false;
  if (array.bytes() && std::memcmp(array.data(), other.array.data(), array.bytes()) != 0)
    return false;
  return value.bitwise_equal(other.value);
}

std::optional<Value> Outcome::headline(Primitive primitive) const {
  if (primitive == Primitive::reduce) return value;
  if (array.size() == 0) return std::nullopt;
  return visit_dtype(array.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return Value::of(array.as<T>().back());
  });
}

Expectation::Expectation(HostView input, const Operation& operation) : operation_(operation) {
  if (operation.primitive == Primitive::reduce)
    reduce_ = reference_reduce(input, operation.op);
  else
    scan_.emplace(input, operation.op, operation.scan);
}

Verdict Expectation::check(const Outcome& got) const {
  if (reduce_) return validate(got.value, *reduce_, operation_.op);
  return scan_->validate(got.array.view());
}

std::optional<Value> Expectation::headline() const {
  if (reduce_) return reduce_->value;
  return scan_->last();
}

}  // namespace xr
