// pocl's compiler prints its diagnostics' count ("1 error generated.") to the process's stderr
// beside the build log, which breaks the tool's one line per error: while a user's kernel
// compiles, stderr goes to /dev/null (the log, which the error message carries, holds
// everything).
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

namespace xr::opencl {

class QuietStderr {
 public:
  QuietStderr() {
    std::fflush(stderr);
    saved_ = dup(STDERR_FILENO);
    const int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved_ >= 0 && null >= 0) dup2(null, STDERR_FILENO);
    if (null >= 0) close(null);
  }
  ~QuietStderr() {
    std::fflush(stderr);
    if (saved_ < 0) return;
    dup2(saved_, STDERR_FILENO);
    close(saved_);
  }
  QuietStderr(const QuietStderr&) = delete;
  QuietStderr& operator=(const QuietStderr&) = delete;

 private:
  int saved_ = -1;
};

}  // namespace xr::opencl
