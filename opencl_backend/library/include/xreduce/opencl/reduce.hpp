// A reduce of `count` elements of the caller's buffer, enqueued on the caller's in-order queue:
// one accumulator (float for f16/bf16) at byte 0 of the caller's output buffer.
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

// Named by designated initializers, `count` last: `{.dtype = DType::i32, .count = n}`.
struct ReduceDesc {
  std::string variant = {};  // a reduce id ("fast/single-pass"); empty: the library's choice
  DType dtype = DType::f32;
  Op op = Op::sum;
  std::uint64_t count = 0;  // >= 1
};

class Reduce {
 public:
  // Builds the kernels it needs. Throws xr::Error: usage (count 0, an unknown id), unsupported
  // (the device cannot run the variant or the type, named).
  Reduce(const Context& context, const ReduceDesc& desc);

  const std::string& variant() const;
  DType result_dtype() const;          // the accumulator at byte 0 of the output
  std::uint64_t scratch_size() const;  // bytes of the scratch buffer enqueue() takes
  // Zero-fills the scratch once before its first use (fast/single-pass's ticket starts at 0 and
  // the last work-group puts it back).
  void enqueue_scratch_init(cl_command_queue queue, cl_mem scratch) const;
  // Enqueues the call. `wait` gates its first kernel; `first` and `last`, when given, receive
  // its first and last kernel's events (the caller releases them). The buffers are checked
  // first, as Sort::enqueue's are: Error(usage) for a short, foreign or overlapping one, and
  // for an out-of-order queue.
  void enqueue(cl_command_queue queue, cl_mem input, cl_mem output, cl_mem scratch,
               std::span<const cl_event> wait = {}, cl_event* first = nullptr,
               cl_event* last = nullptr) const;
  // What each kernel of the call compiled into (`xreduce inspect`).
  std::vector<CompiledPass> compiled() const;

 private:
  struct State;
  StatePtr<State> state_;
};

}  // namespace xr::opencl
