#include "xreduce/sort_request.hpp"

#include <string>
#include <utility>

#include "xreduce/error.hpp"
#include "xreduce/sort_reference.hpp"

namespace xr {

SortDesc check_sort_desc(const SortDesc& desc) {
  check_sort_bits(desc.bits, desc.dtype);
  SortDesc checked = desc;
  checked.bits = effective_bits(desc.bits, desc.dtype);
  return checked;
}

namespace {

void check_sorted_keys(const DeviceArray& keys, const DeviceArray& out) {
  if (&keys == &out || out.dtype() != keys.dtype() || out.size() != keys.size())
    throw Error(ErrorCategory::usage,
                "sorted keys must be a distinct array of the keys' dtype and size");
}

void check_values(const DeviceArray& keys, const DeviceArray* values, const DeviceArray* out) {
  if (!values != !out)
    throw Error(ErrorCategory::usage, "a sort of pairs needs both the values and their output");
  if (!values) return;
  if (values == out || (values->dtype() != DType::u32 && values->dtype() != DType::u64) ||
      out->dtype() != values->dtype() || values->size() != keys.size() ||
      out->size() != keys.size())
    throw Error(ErrorCategory::usage,
                "a sort's values and their output must be distinct arrays of the keys' size, both "
                "u32 or both u64");
}

SortValues values_of(const DeviceArray* values) {
  if (!values) return SortValues::none;
  return values->dtype() == DType::u64 ? SortValues::u64 : SortValues::u32;
}

}  // namespace

SortRequest SortRequest::make(const VariantInfo& variant, DeviceArray& keys,
                              DeviceArray& sorted_keys, DeviceArray* values,
                              DeviceArray* sorted_values, SortOrder order, BitRange bits,
                              bool count_on_device) {
  const DType t = keys.dtype();
  if (!variant.claims(t))
    throw Error(ErrorCategory::unsupported,
                variant.id + " does not sort " + std::string(to_string(t)) + " keys");
  check_sorted_keys(keys, sorted_keys);
  check_values(keys, values, sorted_values);
  SortDesc desc = check_sort_desc({.dtype = t,
                                   .count = keys.size(),
                                   .order = order,
                                   .bits = bits,
                                   .values = values_of(values),
                                   .variant = variant.id});
  return SortRequest(keys, sorted_keys, values, sorted_values, std::move(desc), count_on_device);
}

void SortRequest::check_made_for(const VariantInfo& variant) const {
  if (desc_.variant != variant.id)
    throw Error(ErrorCategory::usage,
                "a sort request made for " + desc_.variant + " was given to " + variant.id);
}

}  // namespace xr
