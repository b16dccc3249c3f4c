// Every thread of the tool gets an alternate signal stack, the drivers' own worker threads
// included: pocl and lavapipe run a kernel's work-groups on their worker threads' stacks, and a
// kernel whose private arrays pass that stack faults with the stack pointer past its end, where
// no handler can run (the fault kills the process without a word). On its own stack the fault
// guard's handler runs, and the run ends in its one line, exit 5 (core's CpuFaultGuard).
//
// The drivers create their threads themselves (pocl: pthread_create with default attributes),
// so the tool interposes pthread_create: the executable's definition comes first in the lookup
// of every library it loads (exported by the link: --export-dynamic-symbol), and calls the next
// one (libc's, or a sanitizer's interceptor) with a start routine that installs the stack.
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>

#include <cerrno>
#include <cstdlib>
#include <new>

namespace {

// Past MINSIGSTKSZ and what the fault guard's handler (a write and an _exit) or a sanitizer's
// report needs.
constexpr std::size_t kSignalStackBytes = 64 * 1024;

using CreateFn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);

CreateFn next_create() {
  static const auto next = reinterpret_cast<CreateFn>(::dlsym(RTLD_NEXT, "pthread_create"));
  return next;
}

// The thread's signal stack, installed where it has none (a sanitizer's runtime installs its
// own), removed and freed when the thread ends however it ends (return, pthread_exit, cancel).
struct SignalStack {
  void* memory = nullptr;
  SignalStack() {
    stack_t current{};
    if (::sigaltstack(nullptr, &current) != 0 || !(current.ss_flags & SS_DISABLE)) return;
    memory = std::malloc(kSignalStackBytes);
    if (!memory) return;
    const stack_t ours{memory, 0, kSignalStackBytes};
    if (::sigaltstack(&ours, nullptr) != 0) {
      std::free(memory);
      memory = nullptr;
    }
  }
  ~SignalStack() {
    if (!memory) return;
    const stack_t off{nullptr, SS_DISABLE, 0};
    ::sigaltstack(&off, nullptr);
    std::free(memory);
  }
  SignalStack(const SignalStack&) = delete;
  SignalStack& operator=(const SignalStack&) = delete;
};

struct Start {
  void* (*routine)(void*);
  void* argument;
};

void* start_with_signal_stack(void* boxed) {
  const Start start = *static_cast<Start*>(boxed);
  delete static_cast<Start*>(boxed);
  thread_local SignalStack stack;  // constructed here, destroyed at the thread's exit
  return start.routine(start.argument);
}

}  // namespace

extern "C" int pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                              void* (*routine)(void*), void* argument) noexcept {
  const CreateFn next = next_create();
  if (!next) return EAGAIN;
  auto* boxed = new (std::nothrow) Start{routine, argument};
  if (!boxed) return next(thread, attr, routine, argument);
  const int status = next(thread, attr, &start_with_signal_stack, boxed);
  if (status != 0) delete boxed;
  return status;
}
