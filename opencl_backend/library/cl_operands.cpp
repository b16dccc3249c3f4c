#include "cl_operands.hpp"

#include <array>
#include <string>
#include <vector>

#include "cl_context.hpp"
#include "xreduce/error.hpp"
#include "xreduce/operand_spans.hpp"

namespace xr::opencl {
namespace {

[[noreturn]] void refuse(std::string_view who, std::string_view name, const std::string& why) {
  throw Error(ErrorCategory::usage, std::string(who) + ": `" + std::string(name) + "` " + why);
}

// clGetMemObjectInfo of one fixed-size answer; false where the object is not a memory object.
template <class T>
bool mem_info(cl_mem m, cl_mem_info what, T& out) {
  return clGetMemObjectInfo(m, what, sizeof out, &out, nullptr) == CL_SUCCESS;
}

// The buffer's facts a call checks, read once.
struct BufferFacts {
  cl_context context = nullptr;
  cl_mem_flags flags = 0;
  std::size_t size = 0;
  cl_mem parent = nullptr;  // a sub-buffer's buffer; null for a buffer
  std::size_t offset = 0;   // a sub-buffer's offset into its parent
};

BufferFacts facts_of(std::string_view who, const BufferUse& use) {
  BufferFacts f;
  cl_mem_object_type type = 0;
  if (!mem_info(use.buffer, CL_MEM_TYPE, type) || type != CL_MEM_OBJECT_BUFFER)
    refuse(who, use.name, "is not an OpenCL buffer (an image, or not a memory object)");
  if (!mem_info(use.buffer, CL_MEM_CONTEXT, f.context) ||
      !mem_info(use.buffer, CL_MEM_FLAGS, f.flags) || !mem_info(use.buffer, CL_MEM_SIZE, f.size) ||
      !mem_info(use.buffer, CL_MEM_ASSOCIATED_MEMOBJECT, f.parent) ||
      !mem_info(use.buffer, CL_MEM_OFFSET, f.offset))
    refuse(who, use.name, "does not answer clGetMemObjectInfo");
  return f;
}

void check_access(std::string_view who, const BufferUse& use, cl_mem_flags flags) {
  const bool reads = use.access != Access::write, writes = use.access != Access::read;
  if (writes && (flags & CL_MEM_READ_ONLY))
    refuse(who, use.name, "was made CL_MEM_READ_ONLY, and the call writes it");
  if (reads && (flags & CL_MEM_WRITE_ONLY))
    refuse(who, use.name, "was made CL_MEM_WRITE_ONLY, and the call reads it");
}

// The buffer's CL_MEM_SIZE holds the use's bytes from its offset, compared without offset + bytes,
// which wraps for an offset near 2^64 (and would then pass as a small sum).
void check_size(std::string_view who, const BufferUse& use, std::size_t size) {
  if (!use.offset) return require_holds(who, use.name, size, use.bytes, " (CL_MEM_SIZE)", use.why);
  if (use.offset <= size && use.bytes <= size - use.offset) return;
  refuse(who, use.name,
         "holds " + std::to_string(size) + " bytes (CL_MEM_SIZE); the call needs " +
             std::to_string(use.bytes) + " from byte " + std::to_string(use.offset) +
             std::string(use.why));
}

void check_buffers(const ContextState& context, std::string_view who,
                   std::initializer_list<BufferUse> buffers) {
  OperandSpans spans;
  for (const BufferUse& use : buffers) {
    if (!use.bytes) continue;
    if (!use.buffer) refuse(who, use.name, "is null");
    const BufferFacts f = facts_of(who, use);
    if (f.context != context.context)
      refuse(who, use.name, "belongs to another cl_context than the Context's");
    check_access(who, use, f.flags);
    check_size(who, use, f.size);
    // Sub-buffers of one buffer are compared in their parent's bytes (no sum wraps: the bytes lie
    // within the sub-buffer, the sub-buffer within its parent).
    const cl_mem root = f.parent ? f.parent : use.buffer;
    spans.add(who, {.space = reinterpret_cast<std::uintptr_t>(root),
                    .begin = (f.parent ? f.offset : 0) + use.offset,
                    .bytes = use.bytes,
                    .name = use.name});
  }
  require_disjoint(who, spans);
}

void check_queue(const ContextState& context, std::string_view who, cl_command_queue queue) {
  cl_context queue_context = nullptr;
  cl_device_id device = nullptr;
  cl_command_queue_properties properties = 0;
  if (!queue) refuse(who, "queue", "is null");
  if (clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof queue_context, &queue_context,
                            nullptr) != CL_SUCCESS ||
      clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, nullptr) !=
          CL_SUCCESS ||
      clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof properties, &properties, nullptr) !=
          CL_SUCCESS)
    refuse(who, "queue", "is not an OpenCL command queue");
  if (queue_context != context.context)
    refuse(who, "queue", "belongs to another cl_context than the Context's");
  if (device != context.facts.device)
    refuse(who, "queue", "feeds another device than the Context's");
  // A call's kernels read what the ones before them wrote, ordered by the queue alone.
  if (properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
    refuse(who, "queue",
           "was made with CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE; the library's commands need an "
           "in-order queue");
}

}  // namespace

void check_call(const ContextState& context, std::string_view call, cl_command_queue queue,
                std::initializer_list<BufferUse> buffers, CheckedOperands* checked) {
  struct Call {
    const ContextState& context;
    std::string_view call;
    cl_command_queue queue;
    std::initializer_list<BufferUse> buffers;
    void check() const {
      const CallName who("xreduce::opencl", call);
      check_queue(context, who, queue);
      check_buffers(context, who, buffers);
    }
  } const c{context, call, queue, buffers};
  if (!checked) return c.check();
  // The queue, then each buffer, the bytes it must hold and where they start: a call of another
  // size or offset over the same buffers is checked again. The check is captured by one
  // reference, which std::function holds without an allocation.
  std::array<std::uint64_t, 1 + 3 * kMaxOperands> handles{reinterpret_cast<std::uintptr_t>(queue)};
  std::size_t n = 1;
  for (const BufferUse& use : buffers)
    if (n + 3 <= handles.size()) {
      handles[n++] = use.bytes ? reinterpret_cast<std::uintptr_t>(use.buffer) : 0;
      handles[n++] = use.bytes;
      handles[n++] = use.offset;
    }
  checked->check({handles.data(), n}, [&c] { c.check(); });
}

}  // namespace xr::opencl
