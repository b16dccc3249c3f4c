// An OpenCL object's diagnostics (xreduce/diagnostics.hpp): the kernels' compiled code, the
// tuning entry, and onesweep's running count of look-back fallbacks, read back from its scratch.
#pragma once

#include <CL/cl.h>

#include <cstdint>

#include "xreduce/diagnostics.hpp"

namespace xr::opencl {

class Diagnostics : public PassDiagnostics {
 public:
  class Source : public PassDiagnostics::Source {
   public:
    virtual std::uint64_t fallbacks(cl_command_queue queue, cl_mem scratch) const = 0;

   protected:
    ~Source() = default;
  };

  explicit Diagnostics(const Source& source) : PassDiagnostics(source), source_(&source) {}

  // Onesweep's running count of look-back fallbacks in scratch (a work-group counting a
  // predecessor's digits itself rather than wait for it), read back (blocking); 0 otherwise.
  std::uint64_t fallbacks(cl_command_queue queue, cl_mem scratch) const {
    return source_->fallbacks(queue, scratch);
  }

 private:
  const Source* source_;
};

}  // namespace xr::opencl
