#include "xreduce/device_timeout.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace xr {
namespace {

std::atomic<DeviceTimeoutHandler> g_handler{nullptr};

}  // namespace

std::string DeviceTimeout::describe() const {
  const double seconds = static_cast<double>(limit.count()) / 1000.0;
  char text[32];
  std::snprintf(text, sizeof text, "%g s", seconds);
  return text;
}

DeviceTimeout read_device_timeout() {
  DeviceTimeout t;
  const char* value = std::getenv("XR_DEVICE_TIMEOUT");
  if (!value || !*value) return t;
  t.given = value;
  char* end = nullptr;
  const double seconds = std::strtod(value, &end);
  if (end == value || *end != '\0' || !std::isfinite(seconds) || seconds <= 0 || seconds > 86400) {
    t.error =
        "XR_DEVICE_TIMEOUT must be a number of seconds above 0 and at most 86400 (e.g. 2 or "
        "0.5)";
    return t;
  }
  t.limit = std::chrono::milliseconds(std::max<long long>(1, std::llround(seconds * 1000)));
  return t;
}

void set_device_timeout_handler(DeviceTimeoutHandler handler) {
  g_handler.store(handler);
}

void device_timed_out(const std::string& message) {
  const Error error(ErrorCategory::device_lost, message);
  if (DeviceTimeoutHandler handler = g_handler.load()) handler(error);
  throw error;
}

}  // namespace xr
