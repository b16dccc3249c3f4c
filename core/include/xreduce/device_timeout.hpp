// How long a backend waits for its device to finish one submission, and what happens when it
// does not (docs/kernels.md, "Bad kernels"): a user's kernel that never finishes must end the run
// with exit 5, not hang it.
//
// A device still running such a kernel cannot be torn down: vkDeviceWaitIdle and cudaFree wait
// for work that never ends. So a timed-out wait does not unwind through the owners of the device's
// resources when a handler is installed: the tool installs one that prints the error line and
// ends the process at once, leaving the device to the driver's process teardown.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "xreduce/error.hpp"

namespace xr {

// XR_DEVICE_TIMEOUT, parsed once by each backend's knobs.
struct DeviceTimeout {
  // A wait this long means the device stopped answering: far above the slowest single
  // submission of any sweep, on a GPU or on a CPU device (docs/results/H200/tuning-notes.md);
  // not a tuned number.
  std::chrono::milliseconds limit{60'000};
  std::string given;  // the knob's value as set, empty when unset
  std::string error;  // one line when the value is not a number of seconds in (0, 86400]
  // "60 s", "0.5 s"
  std::string describe() const;
};

// XR_DEVICE_TIMEOUT=SECONDS (a decimal number, e.g. 2 or 0.5), or the default. Never throws.
DeviceTimeout read_device_timeout();

// Called with the Error(device_lost) of a timed-out wait; must not return (it ends the process).
using DeviceTimeoutHandler = void (*)(const Error& error);
// Installs the handler of every later timeout (nullptr: throw, the default, for tests that catch).
void set_device_timeout_handler(DeviceTimeoutHandler handler);
// What a backend calls when a wait passed its limit: the installed handler, else throws
// Error(device_lost) with `message`. Two threads that time out at once: one line is said.
[[noreturn]] void device_timed_out(const std::string& message);

// Ends the process through the installed handler when the calls it guards (a timed call, from
// its first enqueue to its last wait) are still running `limit` after it was made: a CPU device
// runs kernels in this process, and a kernel's stray write into the driver's own memory can leave
// a driver call blocked with no timeout of its own (pocl in clSetUserEventStatus). One watchdog
// thread serves every guard. Inactive (`active` false, or no handler installed: a test that
// catches its timeouts) it does nothing.
class DeviceWatchdog {
 public:
  DeviceWatchdog(bool active, std::chrono::milliseconds limit, std::string message);
  ~DeviceWatchdog();
  DeviceWatchdog(const DeviceWatchdog&) = delete;
  DeviceWatchdog& operator=(const DeviceWatchdog&) = delete;

 private:
  std::uint64_t id_ = 0;  // 0: not armed
};

}  // namespace xr
