// xreduce's OpenCL reduce, scan, sort and histogram as a library: a Context over the caller's
// cl_context and cl_device_id. The library makes no context, queue or buffer of its own: it builds
// its kernels for the device (kept as program binaries between runs, XR_KERNEL_CACHE: the one
// environment variable it reads; the tool's knobs of docs/cli.md are not the library's) and
// enqueues them on the caller's queue over the caller's buffers.
#pragma once

#include <CL/cl.h>

#include <memory>
#include <string>
#include <vector>

#include "xreduce/error.hpp"
#include "xreduce/primitive.hpp"
#include "xreduce/state_ptr.hpp"
#include "xreduce/types.hpp"

namespace xr::opencl {

struct ContextState;  // the library's own (cl_context.hpp)
struct OpenClKnobs;   // the tool's knobs (cl_knobs.hpp): a caller's Context has the defaults

class Context {
 public:
  // Throws xr::Error: usage (a null handle, a device not in the context), unsupported (a device
  // before OpenCL 1.2).
  Context(cl_context context, cl_device_id device);

  const std::string& device_name() const;
  // The variants of `primitive` this device can run over `t`, fastest first.
  std::vector<std::string> variants(Primitive primitive, DType t) const;

  // The library's own state, for its implementation and the tool's adapter (the library's
  // internal interface, cl_internal.hpp): ContextState is declared only, so nothing of it is
  // part of the public API.
  friend ContextState& state_of(const Context& context);

 private:
  explicit Context(std::unique_ptr<ContextState> state);
  friend Context make_context(cl_context context, cl_device_id device, OpenClKnobs knobs);
  StatePtr<ContextState> state_;
};

}  // namespace xr::opencl
