#include "xreduce/device_timeout.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

namespace xr {
namespace {

std::atomic<DeviceTimeoutHandler> g_handler{nullptr};

// The watchdog's armed guards, by id, and the thread that waits for the earliest. Never
// destroyed: the thread may still wait when static destructors run.
struct Watchdog {
  struct Armed {
    std::chrono::steady_clock::time_point deadline;
    std::string message;
  };
  std::mutex mutex;
  std::condition_variable changed;
  std::map<std::uint64_t, Armed> armed;
  std::uint64_t next_id = 1;
  bool started = false;

  void watch() {
    std::unique_lock lock(mutex);
    for (;;) {
      if (armed.empty()) {
        changed.wait(lock);
        continue;
      }
      const auto first = std::min_element(
          armed.begin(), armed.end(),
          [](const auto& a, const auto& b) { return a.second.deadline < b.second.deadline; });
      // A copy: the guard may be disarmed (its entry erased) while this thread waits.
      const auto deadline = first->second.deadline;
      if (std::chrono::steady_clock::now() < deadline) {
        changed.wait_until(lock, deadline);
        continue;
      }
      const std::uint64_t id = first->first;
      const std::string message = first->second.message;
      lock.unlock();
      if (g_handler.load()) device_timed_out(message);  // ends the process
      lock.lock();
      armed.erase(id);
    }
  }
};

Watchdog& watchdog() {
  static Watchdog* w = new Watchdog;
  return *w;
}

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
  if (DeviceTimeoutHandler handler = g_handler.load()) {
    static std::atomic_flag ending = ATOMIC_FLAG_INIT;
    if (ending.test_and_set())
      for (;;) std::this_thread::sleep_for(std::chrono::hours(1));  // the first is ending it
    handler(error);
  }
  throw error;
}

DeviceWatchdog::DeviceWatchdog(bool active, std::chrono::milliseconds limit, std::string message) {
  if (!active || !g_handler.load()) return;
  Watchdog& w = watchdog();
  const std::lock_guard lock(w.mutex);
  if (!w.started) {
    std::thread([&w] { w.watch(); }).detach();
    w.started = true;
  }
  id_ = w.next_id++;
  w.armed[id_] = {std::chrono::steady_clock::now() + limit, std::move(message)};
  w.changed.notify_one();
}

DeviceWatchdog::~DeviceWatchdog() {
  if (!id_) return;
  Watchdog& w = watchdog();
  const std::lock_guard lock(w.mutex);
  w.armed.erase(id_);
  w.changed.notify_one();
}

}  // namespace xr
