// Move-only owners of OpenCL objects: each releases its handle once, in its destructor.
#pragma once

#include <CL/cl.h>

#include <utility>

namespace xr::onebin {

template <class H, cl_int (*Release)(H)>
class ClOwner {
 public:
  ClOwner() = default;
  explicit ClOwner(H h) : h_(h) {}
  ClOwner(const ClOwner&) = delete;
  ClOwner& operator=(const ClOwner&) = delete;
  ClOwner(ClOwner&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  ClOwner& operator=(ClOwner&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  ~ClOwner() { reset(); }

  H get() const { return h_; }
  void reset() {
    if (h_) Release(std::exchange(h_, nullptr));
  }

 private:
  H h_ = nullptr;
};

using ClContext = ClOwner<cl_context, clReleaseContext>;
using ClQueue = ClOwner<cl_command_queue, clReleaseCommandQueue>;
using ClMem = ClOwner<cl_mem, clReleaseMemObject>;
using ClProgram = ClOwner<cl_program, clReleaseProgram>;
using ClKernel = ClOwner<cl_kernel, clReleaseKernel>;
using ClEvent = ClOwner<cl_event, clReleaseEvent>;

}  // namespace xr::onebin
