// A reduce (sum, min or max) of `count` elements to one value, enqueued on the caller's stream
// over the caller's device memory: xreduce's CUDA ladder as a library, the way
// cub::DeviceReduce is one (docs/library.md).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "xreduce/error.hpp"
#include "xreduce/state_ptr.hpp"
#include "xreduce/types.hpp"

namespace xr::cuda {

struct DeviceLimits;  // the library's view of a device (read once by the tool)

struct ReduceDesc {
  DType dtype = DType::i32;
  Op op = Op::sum;
  std::uint64_t count = 1;  // at least 1 (the reduce of nothing is the identity, no launch)
  std::string variant{};    // empty: the library's choice (reduce_variants)
  // The classic global/* ladder writes its partials into the input: asked for by id, it runs
  // only with this set, and only over 32-bit types.
  bool overwrite_input = false;
};

class Reduce {
 public:
  // Plans `desc` for the current device (cudaGetDevice): passes, grids, scratch; no launch, no
  // allocation. Throws xr::Error: usage (a count of 0, an unknown id, an in-place id without
  // overwrite_input), unsupported (what the variant needs that the device or dtype lacks),
  // unavailable (no device).
  explicit Reduce(const ReduceDesc& desc);
  // The same for a device whose limits were read already (the tool's context).
  Reduce(const ReduceDesc& desc, const DeviceLimits& device);

  const std::string& variant() const;
  // Bytes of device scratch enqueue() uses, from a 256-byte aligned address (as cudaMalloc
  // gives): zero them once before the first enqueue with this Reduce (fast/single-pass keeps
  // its ticket there and leaves it zero after every call).
  std::size_t scratch_size() const;
  // Enqueues on `stream` the reduce of `count` elements of dtype at `in` into one element of
  // dtype at `out` (16-bit floats accumulate in float and round once), every launch checked.
  // `in` 16-byte aligned, `out` aligned to its type, `scratch` to 256 bytes: Error(usage)
  // otherwise. Two calls that share a scratch must be ordered (one stream); the call itself
  // allocates nothing and is thread-safe. The float order is fixed: deterministic.
  void enqueue(cudaStream_t stream, const void* in, void* out, void* scratch) const;
  // The plan, for logs: "2 passes: 1056x256 -> 1x256".
  std::string describe() const;

  struct State;

 private:
  StatePtr<State> state_;
};

// The reduce ids the current device runs over `t` without overwriting the input, the library's
// choice first, then the rest of the ladder from its fast end.
std::vector<std::string> reduce_variants(DType t);

}  // namespace xr::cuda
