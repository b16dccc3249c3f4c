#include "xreduce/call_check.hpp"

namespace xr {

void check_calls(int calls) {
  if (calls < 1)
    throw Error(ErrorCategory::usage,
                "a batch needs at least one call, not " + std::to_string(calls));
}

void check_reduce_call(const VariantInfo& info, const DeviceArray& input, Op op, int calls) {
  check_calls(calls);
  if (!info.claims(input.dtype()) || !info.claims(op))
    throw Error(ErrorCategory::unsupported, info.id + " does not implement " +
                                                std::string(to_string(op)) + " on " +
                                                std::string(to_string(input.dtype())));
}

void check_scan_call(const VariantInfo& info, const DeviceArray& input, const DeviceArray& output,
                     Op op, ScanKind kind, int calls) {
  check_calls(calls);
  const DType t = input.dtype();
  if (!info.claims(t) || !info.claims(op) || !info.claims(kind))
    throw Error(ErrorCategory::unsupported,
                info.id + " does not implement the " + std::string(to_string(kind)) + " " +
                    std::string(to_string(op)) + " scan of " + std::string(to_string(t)));
  if (&input == &output || output.dtype() != t || output.size() != input.size())
    throw Error(ErrorCategory::usage,
                "scan output must be a distinct array of the input's dtype and size");
}

std::string unknown_variant(std::string_view id) {
  return "unknown variant '" + std::string(id) + "'";
}

void require_known_variant(std::string_view backend, Primitive primitive, std::string_view id,
                           bool known) {
  if (!known)
    throw Error(ErrorCategory::usage, "the " + std::string(backend) + " backend has no " +
                                          std::string(to_string(primitive)) + " variant '" +
                                          std::string(id) + "'");
}

void require_supported(std::string_view id, std::string_view device, const std::string& why) {
  if (!why.empty())
    throw Error(ErrorCategory::unsupported,
                std::string(id) + " on " + std::string(device) + ": " + why);
}

}  // namespace xr
