#include "sort_case.hpp"

#include <algorithm>
#include <execution>

#include "xreduce/generate.hpp"

namespace xr::onebin {

std::string SortCase::name() const {
  std::string s = std::string(to_string(desc.dtype)) + " keys";
  if (desc.pairs()) s += " + " + std::string(to_string(desc.values)) + " values";
  return s;
}

SortCase make_case(DType keys, SortValues values, std::uint64_t n, std::uint64_t seed) {
  SortCase c;
  c.desc = {.dtype = keys, .count = n, .values = values, .variant = "radix/onesweep"};
  c.keys = generate(keys, n, seed, Distribution::full);
  if (values == SortValues::u32) {
    c.values = HostArray(DType::u32, n);
    const auto v = c.values.as<std::uint32_t>();
    std::for_each(std::execution::par, v.begin(), v.end(), [&](std::uint32_t& x) {
      x = static_cast<std::uint32_t>(sort_position_value(values, std::uint32_t(&x - v.data())));
    });
  } else if (values != SortValues::none) {
    throw Error(ErrorCategory::usage, "the experiment carries u32 values or none");
  }
  return c;
}

SlotSizes slot_sizes(const SortCase& c, std::uint64_t temp_bytes) {
  const std::uint64_t keys = c.keys.bytes(), values = c.values.bytes();
  return {keys, keys, values, values, temp_bytes};
}

CallOutput empty_output(const SortCase& c) {
  return {HostArray(c.keys.dtype(), c.keys.size()),
          c.desc.pairs() ? HostArray(DType::u32, c.values.size()) : HostArray()};
}

Verdict check_output(const SortReference& reference, const SortCase& c, const CallOutput& out) {
  return reference.validate(out.keys.view(), c.desc.pairs() ? &out.values : nullptr);
}

}  // namespace xr::onebin
