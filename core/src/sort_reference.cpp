#include "xreduce/sort_reference.hpp"

#include <algorithm>
#include <cstring>
#include <execution>
#include <string>

#include "xreduce/error.hpp"
#include "xreduce/sort_keys.hpp"

namespace xr {
namespace {

// A key's compared bits and its input position: sorting these records by (bits, position) is the
// stable order, with a total order the parallel sort needs no stability for.
struct Record {
  std::uint64_t bits;
  std::uint32_t position;
};

std::vector<Record> records(HostView keys, SortOrder order, BitRange range) {
  std::vector<Record> out(keys.size);
  std::for_each(std::execution::par, out.begin(), out.end(), [&](Record& r) {
    const std::size_t i = static_cast<std::size_t>(&r - out.data());
    r = {digit_bits(sort_bits(keys.dtype, keys.data, i, order), range),
         static_cast<std::uint32_t>(i)};
  });
  return out;
}

std::string key_text(HostView keys, std::size_t i) {
  return visit_element_dtype(keys.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T v;
    std::memcpy(&v, static_cast<const unsigned char*>(keys.data) + i * sizeof(T), sizeof(T));
    return Value::of(v).to_string();
  });
}

}  // namespace

void check_sort_bits(BitRange bits, DType t) {
  if (bits.all()) return;
  const std::uint32_t width = static_cast<std::uint32_t>(8 * size_of(t));
  const auto range = [&] {
    return "bits " + std::to_string(bits.begin) + ":" + std::to_string(bits.end);
  };
  if (bits.begin >= bits.end)
    throw Error(ErrorCategory::usage,
                range() + " are an empty range: begin must be below end ({} sorts by every bit)");
  if (bits.end > width)
    throw Error(ErrorCategory::usage, range() + " are not within the " + std::to_string(width) +
                                          " bits of a " + std::string(to_string(t)) + " key");
}

SortReference::SortReference(HostView keys, SortOrder order, BitRange bits) : keys_(keys) {
  check_sort_bits(bits, keys.dtype);
  if (keys.size > UINT32_MAX)
    throw Error(ErrorCategory::unsupported,
                "the sort check holds input positions in 32 bits: at most 2^32 - 1 keys");
  std::vector<Record> r = records(keys, order, effective_bits(bits, keys.dtype));
  std::sort(std::execution::par, r.begin(), r.end(), [](const Record& a, const Record& b) {
    return a.bits != b.bits ? a.bits < b.bits : a.position < b.position;
  });
  permutation_.resize(r.size());
  std::transform(std::execution::par, r.begin(), r.end(), permutation_.begin(),
                 [](const Record& x) { return x.position; });
}

Verdict SortReference::validate(HostView sorted, const HostArray* positions) const {
  Verdict v;
  if (sorted.dtype != keys_.dtype || sorted.size != keys_.size) {
    v.message = "the sorted keys differ from the input in dtype or size";
    return v;
  }
  if (positions && ((positions->dtype() != DType::u32 && positions->dtype() != DType::u64) ||
                    positions->size() != keys_.size)) {
    v.message = "the sorted values are not " + std::to_string(keys_.size) + " u32 or u64";
    return v;
  }
  const std::size_t width = size_of(keys_.dtype);
  const auto* got = static_cast<const unsigned char*>(sorted.data);
  const auto* in = static_cast<const unsigned char*>(keys_.data);
  const SortValues values = !positions                         ? SortValues::none
                            : positions->dtype() == DType::u64 ? SortValues::u64
                                                               : SortValues::u32;
  const auto value_at = [&](std::size_t j) -> std::uint64_t {
    if (values == SortValues::u64) return positions->as<std::uint64_t>()[j];
    return positions->as<std::uint32_t>()[j];
  };
  std::size_t wrong = 0, first = keys_.size;
  for (std::size_t j = 0; j < keys_.size; ++j) {
    const std::uint32_t want = permutation_[j];
    const bool key_ok = std::memcmp(got + j * width, in + std::size_t{want} * width, width) == 0;
    if (key_ok && (!positions || value_at(j) == sort_position_value(values, want))) continue;
    if (wrong++ == 0) first = j;
  }
  if (wrong == 0) {
    v.ok = true;
    return v;
  }
  const std::uint32_t want = permutation_[first];
  v.message = std::to_string(wrong) + " of " + std::to_string(keys_.size) +
              " elements out of place; first at " + std::to_string(first) + ": got key " +
              key_text(sorted, first) +
              (positions ? " (from " + std::to_string(value_at(first)) + ")" : "") + ", want " +
              key_text(keys_, want) + " (from " + std::to_string(want) + ")";
  return v;
}

std::optional<Value> SortReference::first() const {
  if (permutation_.empty()) return std::nullopt;
  return visit_element_dtype(keys_.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T v;
    std::memcpy(&v, static_cast<const unsigned char*>(keys_.data) + permutation_[0] * sizeof(T),
                sizeof(T));
    return Value::of(v);
  });
}

HostArray reference_sort(HostView keys, SortOrder order, BitRange bits) {
  const SortReference ref(keys, order, bits);
  HostArray out(keys.dtype, keys.size);
  const std::size_t width = size_of(keys.dtype);
  for (std::size_t j = 0; j < keys.size; ++j)
    std::memcpy(static_cast<unsigned char*>(out.data()) + j * width,
                static_cast<const unsigned char*>(keys.data) + ref.permutation()[j] * width, width);
  return out;
}

}  // namespace xr
