#include "xreduce/cpu_fault_guard.hpp"

#include <pthread.h>
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

// SIGABRT too: a stray write into the heap is found by the allocator, which aborts.
constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGABRT};

// One line the handler writes, formatted before it may run (snprintf and malloc are not
// async-signal-safe).
struct Line {
  char text[512] = {};
  std::size_t length = 0;

  void set(const std::string& s) {
    length = std::min(s.size(), sizeof text - 1);
    std::memcpy(text, s.data(), length);
    if (length == sizeof text - 1) text[length - 1] = '\n';
  }
};

// The handler reads the line of the guard that lives, or once none does, the line that names the
// last kernel a CPU device ran: its stray writes may surface later (a heap the allocator finds
// damaged, a driver structure a later call follows), so the handlers stay for the process's life.
struct GuardState {
  std::mutex mutex;
  int depth = 0;
  Line during, after;
  std::atomic<const Line*> current{nullptr};
  int exit_code = 5;
  bool installed = false;
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
  const Line* line = s.current.load();
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, line->text, line->length);
  ::_exit(s.exit_code);
}

void install_handlers() {
  struct sigaction action {};
  action.sa_handler = &on_fault;
  sigemptyset(&action.sa_mask);
  // On the thread's signal stack where it has one (the tool gives every thread one): a stack
  // that overflowed has no room for the handler.
  action.sa_flags = SA_ONSTACK;
  for (int signal : kSignals) sigaction(signal, &action, nullptr);
}

}  // namespace

std::uint64_t new_thread_stack_bytes() {
  pthread_attr_t attr;
  std::size_t bytes = 0;
  if (::pthread_getattr_default_np(&attr) == 0) {
    ::pthread_attr_getstacksize(&attr, &bytes);
    ::pthread_attr_destroy(&attr);
  }
  return bytes;
}

CpuFaultGuard::CpuFaultGuard(bool active, std::string_view api, std::string_view kernel_id,
                             std::string_view device) {
  if (!active) return;
  GuardState& s = state();
  const std::lock_guard lock(s.mutex);
  installed_ = true;
  if (s.depth++ > 0) return;
  const std::string what = printable(std::string(api) + ": kernel " + std::string(kernel_id) +
                                     " on " + std::string(device));
  s.during.set("xreduce: error: " + what +
               " faulted the process (an access outside every array, a barrier only part of a "
               "work-group reaches, or private arrays past a worker thread's stack?): a CPU "
               "device runs kernels in xreduce's own threads, so the run cannot go on\n");
  s.after.set("xreduce: error: the process faulted after " + what +
              " ran (a stray write of the kernel's into memory the process uses?): a CPU device "
              "runs kernels in xreduce's own threads, so the run cannot go on\n");
  s.exit_code = exit_code(ErrorCategory::device_lost);
  s.current.store(&s.during);
  if (!s.installed) install_handlers();
  s.installed = true;
}

CpuFaultGuard::~CpuFaultGuard() {
  if (!installed_) return;
  GuardState& s = state();
  const std::lock_guard lock(s.mutex);
  if (--s.depth == 0) s.current.store(&s.after);
}

}  // namespace xr
