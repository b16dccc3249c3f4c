// A stable sort of up to `count` keys, optionally with a u32 or u64 value carried by each key,
// enqueued on the caller's stream over the caller's device memory: xreduce's CUDA sorts as a
// library, the way cub::DeviceRadixSort is one (docs/library.md). Keys are ordered by their ordered
// bits (the bits of an unsigned key; a signed key's with the sign bit flipped; a float's with the
// sign bit flipped when positive and every bit flipped when negative: CUB's bit transform, NaNs by
// their bits, -0.0 and +0.0 one key as in CUB), within `bits` of them; every variant, lib/cub
// included, gives the same output.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "xreduce/error.hpp"
#include "xreduce/primitive.hpp"
#include "xreduce/sort_desc.hpp"
#include "xreduce/state_ptr.hpp"
#include "xreduce/types.hpp"

namespace xr::cuda {

struct DeviceLimits;  // the library's view of a device (read once by the tool)
namespace sort {
struct Tuning;  // the tool's knobs (XR_CUB_SORT_COUNT)
}

using SortDesc = xr::SortDesc;  // xreduce/sort_desc.hpp

class Sort {
 public:
  // Plans `desc` for the current device (cudaGetDevice): passes, grids, temporary storage; no
  // launch, no allocation. Throws xr::Error: usage (an unknown id, a bit range past the key),
  // unsupported (what the variant needs that the device lacks), unavailable (no device).
  explicit Sort(const SortDesc& desc);
  // The same for a device whose limits were read already, with the tool's knobs.
  Sort(const SortDesc& desc, const DeviceLimits& device, const sort::Tuning& tuning);

  const std::string& variant() const;
  // Bytes of device temporary storage enqueue() uses, from a 256-byte aligned address (CUB's
  // temp_storage_bytes): the alternate key and value buffers and the digit counts. Needs no
  // zeroing: every call initializes what it reads.
  std::size_t temp_storage_bytes() const;
  // The same bytes for a Sort of `desc` on the current device, before it is made (its plan,
  // which launches and allocates nothing). Throws what the constructor throws for `desc`.
  static std::size_t temp_storage_bytes(const SortDesc& desc);
  // Enqueues on `stream` the sort of `count` keys at `keys_in` into `keys_out` (and, for pairs,
  // the values at `values_in` into `values_out` in their keys' order), every launch checked.
  // The values are desc.values' (std::uint32_t or std::uint64_t), moved as bits and never read;
  // for keys alone they are not used and may be null. The inputs are not written; no two of the
  // arrays overlap; 16-byte aligned, temp to 256 bytes: Error(usage) otherwise. Calls on one
  // temp storage must be ordered (one stream).
  void enqueue(cudaStream_t stream, const void* keys_in, void* keys_out, const void* values_in,
               void* values_out, void* temp);
  // The same for the first `count` keys (and values), count <= desc.count: one Sort for every
  // size up to the one it was made for, over the same temp storage. The arrays need hold `count`
  // elements; Error(usage) past desc.count. Host cost: grids from `count`, no allocation.
  void enqueue(cudaStream_t stream, std::uint64_t count, const void* keys_in, void* keys_out,
               const void* values_in, void* values_out, void* temp);
  // The same with the count read by the kernels when they run: the 32-bit word at `count`
  // (device memory, 4-byte aligned), written by earlier work on the stream. A count past
  // desc.count sorts desc.count keys. The arrays hold desc.count elements; nothing is read back
  // and nothing waits on the host, so the call can be captured in a CUDA graph and replayed for
  // any count. The launches are desc.count's: the blocks past the count's tiles return at once,
  // and bitonic/smem sorts desc.count keys' padded items whatever the count. Error(unsupported)
  // for lib/cub (cub::DeviceRadixSort takes its count from the host) and for radix/onesweep made
  // for more than one launch a digit takes (about 2^30 keys).
  void enqueue_indirect(cudaStream_t stream, const std::uint32_t* count, const void* keys_in,
                        void* keys_out, const void* values_in, void* values_out, void* temp);
  // The plan, for logs: the variant, its passes and tiles.
  std::string describe() const;
  // The tuning entry the plan used (its tile, or lib/cub's num_items width) with the measurement
  // that chose it, for `xreduce inspect`; empty for 0 keys.
  std::string tuning() const;

  struct State;

 private:
  StatePtr<State> state_;
};

// The sort ids the current device runs over keys of `t`, the library's choice first, then the
// rest of the ladder from its fast end.
std::vector<std::string> sort_variants(DType t);

}  // namespace xr::cuda
