// One sort as the tool asks a Sorter for it: the call's arrays and the SortDesc every layer below
// plans by (key type, count, order, effective bits, pairs, variant). It is checked once, where it
// is made; a Sorter adds what its backend knows (its device, its library's plan) and re-derives
// none of it.
#pragma once

#include <cstddef>
#include <utility>

#include "xreduce/backend.hpp"
#include "xreduce/sort_desc.hpp"

namespace xr {

class SortRequest {
 public:
  // The sort of `keys` into `sorted_keys` (and, for pairs, of `values` into `sorted_values` in
  // their keys' order) by `variant`. Error(unsupported) "<id> does not sort <dtype> keys" unless
  // the variant claims the keys' dtype; Error(usage) unless sorted_keys is a distinct array of
  // the keys' dtype and size, values and sorted_values are both null or distinct arrays of
  // the keys' size, both u32 or both u64, and the bit range is within the key (check_sort_desc).
  // `count_on_device`: the sorter gives its library the keys' count in a device word (the
  // indirect call) instead of on the host.
  static SortRequest make(const VariantInfo& variant, DeviceArray& keys, DeviceArray& sorted_keys,
                          DeviceArray* values, DeviceArray* sorted_values, SortOrder order,
                          BitRange bits, bool count_on_device = false);

  DeviceArray& keys() const { return *keys_; }
  DeviceArray& sorted_keys() const { return *sorted_keys_; }
  DeviceArray* values() const { return values_; }  // null for keys only
  DeviceArray* sorted_values() const { return sorted_values_; }
  // What the library plans by: the keys' dtype and count, the order, the bits made effective,
  // whether values travel, the variant's id.
  const SortDesc& desc() const { return desc_; }
  std::size_t count() const { return static_cast<std::size_t>(desc_.count); }
  bool count_on_device() const { return count_on_device_; }
  // f(array) for each array of the request: the keys, the sorted keys, then for pairs the
  // values and the sorted values.
  template <class F>
  void for_each_array(F&& f) const {
    f(*keys_);
    f(*sorted_keys_);
    if (values_) {
      f(*values_);
      f(*sorted_values_);
    }
  }
  // Error(usage) unless the request was made for `variant` (a Sorter's first check).
  void check_made_for(const VariantInfo& variant) const;

 private:
  SortRequest(DeviceArray& keys, DeviceArray& sorted_keys, DeviceArray* values,
              DeviceArray* sorted_values, SortDesc desc, bool count_on_device)
      : keys_(&keys),
        sorted_keys_(&sorted_keys),
        values_(values),
        sorted_values_(sorted_values),
        desc_(std::move(desc)),
        count_on_device_(count_on_device) {}

  DeviceArray* keys_;
  DeviceArray* sorted_keys_;
  DeviceArray* values_;
  DeviceArray* sorted_values_;
  SortDesc desc_;
  bool count_on_device_ = false;
};

}  // namespace xr
