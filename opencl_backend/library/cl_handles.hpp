// Move-only owners of OpenCL objects: each releases its handle once, in its destructor.
// Handles the caller gives the library are never wrapped (the library does not own them).
#pragma once

#include <CL/cl.h>

#include <utility>

namespace xr::opencl {

template <class H, cl_int (*Release)(H), cl_int (*Retain)(H)>
class Owner {
 public:
  Owner() = default;
  explicit Owner(H h) : h_(h) {}
  Owner(const Owner&) = delete;
  Owner& operator=(const Owner&) = delete;
  Owner(Owner&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Owner& operator=(Owner&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  ~Owner() { reset(); }

  // A second owner of the same object (clRetain*): for objects shared by design, as a kernel
  // shared by the passes of several calls.
  static Owner share(H h) {
    if (h) Retain(h);
    return Owner(h);
  }

  H get() const { return h_; }
  explicit operator bool() const { return h_ != nullptr; }
  void reset() {
    if (h_) Release(std::exchange(h_, nullptr));
  }

 private:
  H h_ = nullptr;
};

using ContextOwner = Owner<cl_context, clReleaseContext, clRetainContext>;
using QueueOwner = Owner<cl_command_queue, clReleaseCommandQueue, clRetainCommandQueue>;
using MemOwner = Owner<cl_mem, clReleaseMemObject, clRetainMemObject>;
using ProgramOwner = Owner<cl_program, clReleaseProgram, clRetainProgram>;
using KernelOwner = Owner<cl_kernel, clReleaseKernel, clRetainKernel>;
using EventOwner = Owner<cl_event, clReleaseEvent, clRetainEvent>;

}  // namespace xr::opencl
