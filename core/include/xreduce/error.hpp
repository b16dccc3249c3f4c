// The one error type of xreduce. Every backend call that can fail throws it (through the
// backends' checked-call macros), the tool maps its category to an exit code.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "xreduce/printable.hpp"

namespace xr {

enum class ErrorCategory {
  usage,          // bad input from the user: flags, sizes, files
  unsupported,    // the backend/device cannot run this variant, dtype or op
  unavailable,    // backend built but no usable device/driver
  out_of_memory,  // device or host allocation failed
  device_lost,    // the device stopped answering, a fence/event timed out, a kernel faulted
  check_failed,   // a result did not match the host reference
};

std::string_view to_string(ErrorCategory c);

// A kernel's fault on a GPU, in the same words in every API's error line (exit 5).
inline constexpr std::string_view kKernelFaulted = "the kernel faulted: an out-of-bounds access?";

// Exit codes of the tool, documented in README.md. device_lost has its own code (5) because it
// is neither the user's fault nor a missing device.
int exit_code(ErrorCategory c);

class Error : public std::runtime_error {
 public:
  // A NUL in the message (a byte of a file, a field of a report) is spelled \x00: what() is a C
  // string, and would end there.
  Error(ErrorCategory category, const std::string& message)
      : std::runtime_error(nul_escaped(message)), category_(category) {}
  ErrorCategory category() const { return category_; }

 private:
  ErrorCategory category_;
};

// Throws Error with "file:line: `expr` failed: detail"; the shared tail of XR_CUDA_CHECK and
// XR_VK_CHECK, which classify the API's error code into a category first.
[[noreturn]] void throw_call_error(ErrorCategory category, const char* file, int line,
                                   const char* expr, std::string_view detail);

}  // namespace xr
