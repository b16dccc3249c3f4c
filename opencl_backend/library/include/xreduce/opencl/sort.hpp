// A stable sort of up to `count` keys, optionally with a u32 or u64 value carried by each key (a
// splat renderer's float depths and indices; desc.values), enqueued on the caller's in-order queue
// over the caller's buffers: xreduce's OpenCL sorts as a library (docs/library.md). Keys are
// ordered as xr::cuda::Sort, xr::vulkan::Sort and cub::DeviceRadixSort order them: by their ordered
// bits (an unsigned key's bits; a signed key's with the sign bit flipped; a float's with the sign
// bit flipped when positive, every bit flipped when negative; -0.0 and +0.0 one key), within
// `bits`.
#pragma once

#include <CL/cl.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "xreduce/opencl/context.hpp"
#include "xreduce/opencl/diagnostics.hpp"
#include "xreduce/sort_desc.hpp"
#include "xreduce/state_ptr.hpp"

namespace xr::opencl {

using SortDesc = xr::SortDesc;  // xreduce/sort_desc.hpp

// The caller's buffers of one call: keys in and out, for pairs values in and out (ignored
// otherwise), and the scratch of scratch_size() bytes.
struct SortBuffers {
  cl_mem keys_in = nullptr;
  cl_mem keys_out = nullptr;
  cl_mem values_in = nullptr;
  cl_mem values_out = nullptr;
  cl_mem scratch = nullptr;
};

class Sort {
 public:
  // Plans the passes and builds their kernels. Throws xr::Error: unsupported (what the device
  // lacks for this variant and key type, more keys than the plans take), usage (an unknown
  // variant id, a bit range past the key).
  Sort(const Context& context, const SortDesc& desc);

  const std::string& variant() const;
  // Bytes of scratch enqueue() takes (the alternate keys and values, the digit counts and the
  // look-back's status words).
  std::uint64_t scratch_size() const;
  // The same bytes for a Sort of `desc` not yet made: its plan alone, no kernel built, so that
  // the scratch can be allocated first (as CUB's two-phase call gives its temporary storage).
  // Throws what the constructor throws for `desc`.
  static std::uint64_t scratch_size(const Context& context, const SortDesc& desc);
  // Zeroes scratch: needed once, before the first enqueue() with this Sort (every call then
  // initializes what it reads). Error(usage) for a scratch below scratch_size().
  void enqueue_scratch_init(cl_command_queue queue, cl_mem scratch,
                            std::span<const cl_event> wait = {}, cl_event* done = nullptr) const;
  // Enqueues the sort of keys_in into keys_out (and, for pairs, values_in into values_out in
  // their keys' order) over scratch: the inputs are not written, and two calls that share a
  // scratch run one after the other (an in-order queue does). `first` and `last` receive the
  // first and last kernels' events (retained: the caller releases them). Error(usage), before
  // anything is enqueued, for an out-of-order queue (its kernels read what the ones before them
  // wrote), a queue or buffer of another cl_context, a null or short buffer
  // (keys below count x key bytes, values below count x 4 or 8, scratch below scratch_size()), an
  // output made read-only or an input write-only, and two buffers (or sub-buffers of one) that
  // overlap: no sort runs in place.
  void enqueue(cl_command_queue queue, const SortBuffers& buffers,
               std::span<const cl_event> wait = {}, cl_event* first = nullptr,
               cl_event* last = nullptr) const;
  // The same for the first `count` keys (and values), count <= desc.count: one Sort for every
  // size up to the one it was made for, over the same scratch. The buffers need hold `count`
  // elements; Error(usage) past desc.count. Host cost: the plan of `count` keys into storage the
  // calling thread reuses, no allocation after its first call.
  void enqueue(cl_command_queue queue, std::uint64_t count, const SortBuffers& buffers,
               std::span<const cl_event> wait = {}, cl_event* first = nullptr,
               cl_event* last = nullptr) const;
  // The same with the count read by the kernels when they run: the 32-bit word at byte
  // `count_offset` (a multiple of 4) of `count`, written by earlier commands of the queue (or
  // events in `wait`). A count past desc.count sorts desc.count keys. The buffers hold desc.count
  // elements; nothing is read back. The launches are desc.count's: the work-groups past the
  // count's tiles return at once, and bitonic/smem sorts desc.count keys' padded items whatever
  // the count. Error(unsupported) where this Sort takes no count on the device (radix/onesweep
  // made for more than one launch a digit takes, about 2^30 keys).
  void enqueue_indirect(cl_command_queue queue, cl_mem count, std::uint64_t count_offset,
                        const SortBuffers& buffers, std::span<const cl_event> wait = {},
                        cl_event* first = nullptr, cl_event* last = nullptr) const;
  // For measuring tools, apart from what a renderer calls: the kernels' compiled code and the
  // look-back's fallback count (diagnostics.hpp). Valid while this Sort lives.
  Diagnostics diagnostics() const;

 private:
  struct State;
  StatePtr<State> state_;
};

}  // namespace xr::opencl
