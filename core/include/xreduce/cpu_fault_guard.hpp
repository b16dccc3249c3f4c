// A CPU device (pocl, lavapipe) runs a kernel in this process's own threads: a user's kernel that
// reads or writes far outside every array faults the process itself. While a guard lives, such a
// fault (SIGSEGV, SIGBUS, or SIGABRT from an allocator that found its heap damaged) ends the
// process with one line naming the kernel and the exit code of a lost device (5), where it would
// otherwise die with no message; once a guard has lived, a later fault ends it with a line that
// names the last such kernel, whose stray writes may surface late. It cannot undo what a stray
// write did to memory that was mapped (docs/kernels.md, "Bad kernels").
#pragma once

#include <cstdint>
#include <string_view>

namespace xr {

class CpuFaultGuard {
 public:
  // The line names `api`, the kernel `kernel_id` and `device`; `active`: whether the device runs
  // kernels in this process (a GPU's guard does nothing, and formats nothing). Guards nest: the
  // outermost one's line is printed.
  CpuFaultGuard(bool active, std::string_view api, std::string_view kernel_id,
                std::string_view device);
  ~CpuFaultGuard();
  CpuFaultGuard(const CpuFaultGuard&) = delete;
  CpuFaultGuard& operator=(const CpuFaultGuard&) = delete;

 private:
  bool installed_ = false;
};

// The stack a thread this process starts gets by default (pthread_getattr_default_np): what a
// CPU device's worker threads run a work-group on, pocl's among them.
std::uint64_t new_thread_stack_bytes();

}  // namespace xr
