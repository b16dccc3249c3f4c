// The checks every Reducer and Scanner makes on a call before it touches a device: the
// preconditions of Reducer::reduce and Scanner::scan (backend.hpp), written once for every
// backend. What only a backend can know (its array type, its device, the device's features)
// stays with the backend.
#pragma once

#include <string>
#include <string_view>

#include "xreduce/backend.hpp"
#include "xreduce/error.hpp"

namespace xr {

// Error(usage) unless calls >= 1 (a batch of calls back to back).
void check_calls(int calls);
// check_calls, then Error(unsupported) "<id> does not implement <op> on <dtype>" unless the
// variant claims the input's dtype and `op`.
void check_reduce_call(const VariantInfo& info, const DeviceArray& input, Op op, int calls);
// check_calls, then Error(unsupported) "<id> does not implement the <kind> <op> scan of <dtype>"
// unless the variant claims the dtype, `op` and `kind`, then Error(usage) unless `output` is a
// distinct array of the input's dtype and size.
void check_scan_call(const VariantInfo& info, const DeviceArray& input, const DeviceArray& output,
                     Op op, ScanKind kind, int calls);

// What a library answers for a variant id it lacks: "unknown variant '<id>'".
std::string unknown_variant(std::string_view id);
// A backend's refusal to make a built-in variant of its library: Error(usage) "the <backend>
// backend has no <primitive> variant '<id>'" unless `known`.
void require_known_variant(std::string_view backend, Primitive primitive, std::string_view id,
                           bool known);
// Error(unsupported) "<id> on <device>: <why>" where `why`, the library's answer to whether the
// device runs the variant, is not empty.
void require_supported(std::string_view id, std::string_view device, const std::string& why);

// `array` as backend `Array`'s own type, or Error(usage) "<backend> variant given an array of
// another backend".
template <class Array>
Array& own_array(DeviceArray& array, std::string_view backend) {
  if (auto* a = dynamic_cast<Array*>(&array)) return *a;
  throw Error(ErrorCategory::usage,
              std::string(backend) + " variant given an array of another backend");
}

}  // namespace xr
