#include "xreduce/error.hpp"

#include <string>

namespace xr {

std::string_view to_string(ErrorCategory c) {
  switch (c) {
    case ErrorCategory::usage:
      return "usage";
    case ErrorCategory::unsupported:
      return "unsupported";
    case ErrorCategory::unavailable:
      return "unavailable";
    case ErrorCategory::out_of_memory:
      return "out of memory";
    case ErrorCategory::device_lost:
      return "device lost";
    case ErrorCategory::check_failed:
      return "check failed";
  }
  return "error";
}

int exit_code(ErrorCategory c) {
  switch (c) {
    case ErrorCategory::check_failed:
      return 1;
    case ErrorCategory::usage:
      return 2;
    case ErrorCategory::unsupported:
    case ErrorCategory::unavailable:
      return 3;
    case ErrorCategory::out_of_memory:
      return 4;
    case ErrorCategory::device_lost:
      return 5;
  }
  return 5;
}

void throw_call_error(ErrorCategory category, const char* file, int line, const char* expr,
                      std::string_view detail) {
  std::string where(file);
  if (auto slash = where.find_last_of('/'); slash != std::string::npos) where.erase(0, slash + 1);
  throw Error(category, where + ":" + std::to_string(line) + ": `" + expr +
                            "` failed: " + std::string(detail));
}

}  // namespace xr
