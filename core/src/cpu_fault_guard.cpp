#include "xreduce/cpu_fault_guard.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>

#include "xreduce/error.hpp"
#include "xreduce/printable.hpp"

namespace xr {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS};

// The handler may read only what was written before it was installed: the line, formatted up
// front (snprintf and malloc are not async-signal-safe).
struct GuardState {
  std::mutex mutex;
  int depth = 0;
  char line[512] = {};
  std::size_t length = 0;
  int exit_code = 5;
  struct sigaction previous[2] = {};
};

GuardState& state() {
  static GuardState s;
  return s;
}

// Set by the first thread to fault: the kernel's other threads fault too, and one line is said.
std::atomic_flag g_faulted = ATOMIC_FLAG_INIT;

void on_fault(int) {
  if (g_faulted.test_and_set()) {
    for (;;) ::pause();  // the first faulting thread is ending the process
  }
  const GuardState& s = state();
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, s.line, s.length);
  ::_exit(s.exit_code);
}

}  // namespace

CpuFaultGuard::CpuFaultGuard(bool active, std::string_view api, std::string_view kernel_id,
                             std::string_view device) {
  if (!active) return;
  GuardState& s = state();
  const std::lock_guard lock(s.mutex);
  installed_ = true;
  if (s.depth++ > 0) return;
  const std::string line =
      "xreduce: error: " +
      printable(std::string(api) + ": kernel " + std::string(kernel_id) + " on " +
                std::string(device)) +
      " faulted the process (an access outside every array, or a barrier only part of a work-group "
      "reaches?): a CPU device runs kernels in "
      "xreduce's own threads, so the run cannot go on\n";
  s.exit_code = exit_code(ErrorCategory::device_lost);
  s.length = std::min(line.size(), sizeof s.line - 1);
  std::memcpy(s.line, line.data(), s.length);
  if (s.length == sizeof s.line - 1) s.line[s.length - 1] = '\n';
  struct sigaction action {};
  action.sa_handler = &on_fault;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_ONSTACK;
  for (std::size_t i = 0; i < std::size(kSignals); ++i)
    sigaction(kSignals[i], &action, &s.previous[i]);
}

CpuFaultGuard::~CpuFaultGuard() {
  if (!installed_) return;
  GuardState& s = state();
  const std::lock_guard lock(s.mutex);
  if (--s.depth > 0) return;
  for (std::size_t i = 0; i < std::size(kSignals); ++i)
    sigaction(kSignals[i], &s.previous[i], nullptr);
}

}  // namespace xr
