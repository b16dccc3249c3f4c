// What every enqueue checks of the caller's queue and buffers before it enqueues anything: an
// in-order queue and buffers of the Context's cl_context, each buffer large enough and writable
// where the call writes it, no two sharing a byte. OpenCL itself checks none of it at enqueue time:
// a short buffer is an access past its end inside a kernel, an overlap or an out-of-order queue a
// wrong answer.
#pragma once

#include <CL/cl.h>

#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "xreduce/operand_spans.hpp"

namespace xr::opencl {

struct ContextState;

// How a call uses a buffer: read by its kernels, written, or both (a scratch).
enum class Access { read, write, read_write };

// One of a call's buffers: the bytes its kernels reach from byte `offset` (0: none, and the buffer
// may be null) and how they use them.
struct BufferUse {
  cl_mem buffer;
  std::uint64_t bytes;
  Access access;
  std::string_view name;      // as the call's parameter is named: "keys_in"
  std::string_view why = {};  // what sizes it, for a refusal: " (scratch_size())"
  std::uint64_t offset = 0;   // the caller's, any value: a count's count_offset
};

// Error(usage) "xreduce::opencl: <call>: `name` ..." for a queue that is null, out of order or not
// of the Context's cl_context and device, and for a buffer that is null, not a buffer object, of
// another cl_context, holding fewer than its bytes from its offset (an offset past its end
// included) or made read-only (write-only) where the call writes (reads) it, or two buffers (or
// sub-buffers of one) whose bytes overlap. With `checked`, once per set of queue, buffers, bytes
// and offsets: a call's every enqueue passes the same ones.
void check_call(const ContextState& context, std::string_view call, cl_command_queue queue,
                std::initializer_list<BufferUse> buffers, CheckedOperands* checked = nullptr);

}  // namespace xr::opencl
