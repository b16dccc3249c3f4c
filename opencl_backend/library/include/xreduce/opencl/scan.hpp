// An inclusive or exclusive scan of `count` elements of the caller's buffer into the caller's
// output buffer (of the same element type), enqueued on the caller's in-order queue.
#pragma once

#include <CL/cl.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "xreduce/compiled.hpp"
#include "xreduce/opencl/context.hpp"
#include "xreduce/state_ptr.hpp"

namespace xr::opencl {

// Named by designated initializers, `count` last.
struct ScanDesc {
  std::string variant = {};  // a scan id ("fast/decoupled-lookback"); empty: the library's choice
  DType dtype = DType::f32;
  Op op = Op::sum;
  ScanKind kind = ScanKind::inclusive;
  std::uint64_t count = 0;  // >= 1
};

class Scan {
 public:
  Scan(const Context& context, const ScanDesc& desc);

  const std::string& variant() const;
  std::uint64_t scratch_size() const;
  // Enqueues the call: for the look-back, a fill that zeroes its status words and ticket first
  // (part of the call, as CUB's init kernel is part of its scan), then the kernels. The buffers
  // are checked first, as Sort::enqueue's are: Error(usage) for a short, foreign or overlapping
  // one (the output is not the input), and for an out-of-order queue.
  void enqueue(cl_command_queue queue, cl_mem input, cl_mem output, cl_mem scratch,
               std::span<const cl_event> wait = {}, cl_event* first = nullptr,
               cl_event* last = nullptr) const;
  // The look-back's fallbacks counted in scratch since it was last zeroed (0 for the others);
  // reads scratch (blocking).
  std::uint64_t fallbacks(cl_command_queue queue, cl_mem scratch) const;
  std::vector<CompiledPass> compiled() const;

 private:
  struct State;
  StatePtr<State> state_;
};

}  // namespace xr::opencl
