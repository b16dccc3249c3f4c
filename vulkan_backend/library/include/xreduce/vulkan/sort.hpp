// A stable sort of up to `count` keys, optionally with a u32 or u64 value carried by each key (a
// splat renderer's float depths and indices; desc.values), recorded into the caller's command
// buffer on the caller's device: xreduce's Vulkan sorts as a library (docs/library.md). Keys are
// ordered as xr::cuda::Sort and cub::DeviceRadixSort order them: by their ordered bits (an unsigned
// key's bits; a signed key's with the sign bit flipped; a float's with the sign bit flipped when
// positive, every bit flipped when negative; -0.0 and +0.0 one key), within `bits` of them.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <memory>
#include <string>

#include "xreduce/primitive.hpp"
#include "xreduce/sort_desc.hpp"
#include "xreduce/state_ptr.hpp"
#include "xreduce/types.hpp"
#include "xreduce/vulkan/context.hpp"
#include "xreduce/vulkan/diagnostics.hpp"
#include "xreduce/vulkan/operand.hpp"

namespace xr::vulkan {

using SortDesc = xr::SortDesc;  // xreduce/sort_desc.hpp

class Sort {
 public:
  // Plans the passes and creates their pipelines. Throws xr::Error: unsupported (what the device
  // lacks for this variant and key type, more keys than the variant takes: 2^40 for the radix
  // sorts, 2^31 and one binding of items for bitonic/smem), usage (an unknown variant id, a bit
  // range past the key).
  Sort(const Context& context, const SortDesc& desc);

  const std::string& variant() const;
  // Bytes of scratch record() takes (the alternate keys and values, the digit counts and the
  // look-back's status words), from an offset aligned to Context::operand_alignment().
  VkDeviceSize scratch_size() const;
  // The same bytes for a Sort of `desc` not yet made: its plan alone, no pipeline created, so
  // that the scratch can be allocated first (as CUB's two-phase call gives its temporary
  // storage). Throws what the constructor throws for `desc`.
  static VkDeviceSize scratch_size(const Context& context, const SortDesc& desc);
  // Zeroes scratch and orders the fill after every earlier compute-shader, indirect-command and
  // transfer access (a previous sort's over the same scratch: no barrier of the caller's) and
  // before later compute shaders: needed once, before the first record() with this Sort (every
  // call then initializes what it reads). Error(usage) where the buffer holds fewer than
  // scratch_size() bytes from `offset`.
  void record_scratch_init(VkCommandBuffer cmd, VkBuffer scratch, VkDeviceSize offset = 0) const;
  // Records the sort of `keys_in` into `keys_out` (and, for pairs, `values_in` into `values_out`
  // in their keys' order; ignored otherwise) over `scratch`, and nothing else: the caller's
  // barriers make the inputs visible to compute shaders before and the outputs visible to their
  // readers after, and order two records that share a scratch. The inputs are not written.
  // Checked before anything is recorded (operand.hpp), Error(usage) otherwise: no two operands
  // overlap (no sort runs in place); each holds what the call reaches (keys count x key bytes,
  // values count x 4 or 8, scratch scratch_size()); scratch a buffer, the others buffers (or, where
  // an array passes one storage-buffer binding or count passes 2^32 - 2^16, device addresses;
  // every buffer then made with VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT). Host cost: a few
  // push and dispatch commands, no allocation. Thread-safe on distinct command buffers.
  void record(VkCommandBuffer cmd, const Operand& keys_in, const Operand& keys_out,
              const Operand& values_in, const Operand& values_out, const Operand& scratch) const;
  // The same for the first `count` keys (and values), count <= desc.count: one Sort for every
  // size up to the one it was made for, over the same scratch. The arrays need hold `count`
  // elements; Error(usage) past desc.count. Host cost: the plan of `count` keys into storage the
  // calling thread reuses, no allocation after its first call.
  void record(VkCommandBuffer cmd, std::uint64_t count, const Operand& keys_in,
              const Operand& keys_out, const Operand& values_in, const Operand& values_out,
              const Operand& scratch) const;
  // The same with the count read by the GPU when the sort runs: the 32-bit word at `count` (a
  // buffer made with VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, its offset a multiple of
  // Context::operand_alignment()), written by the caller's earlier commands and made visible to
  // compute shaders by the caller's barrier, or by the host before the submit (flushed first
  // where the memory is not host-coherent: docs/library.md). A count past desc.count sorts
  // desc.count keys. The arrays hold desc.count elements. Nothing is read back: the whole sort is
  // recorded now, its launches desc.count's, the workgroups past the count's tiles returning
  // (bitonic/smem sorts desc.count keys' padded items whatever the count, the keys past it as
  // padding). Error(unsupported) where this Sort takes no count on the device (radix/onesweep made
  // for more than one launch a digit takes, about 2^30 keys).
  void record_indirect(VkCommandBuffer cmd, const Operand& count, const Operand& keys_in,
                       const Operand& keys_out, const Operand& values_in, const Operand& values_out,
                       const Operand& scratch) const;
  // For measuring tools, apart from what a renderer calls: the passes' compiled code, the
  // ranking, the look-back's fallback count (diagnostics.hpp). Valid while this Sort lives.
  Diagnostics diagnostics() const;

  struct State;

 private:
  StatePtr<State> state_;
};

}  // namespace xr::vulkan
