// A scan (prefix sum, min or max) of `count` elements, enqueued on the caller's stream over the
// caller's device memory: xreduce's CUDA scans as a library, the way cub::DeviceScan is one
// (docs/library.md).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "xreduce/error.hpp"
#include "xreduce/primitive.hpp"
#include "xreduce/state_ptr.hpp"
#include "xreduce/types.hpp"

namespace xr::cuda {

struct DeviceLimits;  // the library's view of a device (read once by the tool)
struct ScanTuning;    // the tool's knobs (XR_SCAN_ONE_GROUP_MAX)

struct ScanDesc {
  DType dtype = DType::i32;
  Op op = Op::sum;
  std::uint64_t count = 0;  // 0: enqueue() launches nothing
  std::string variant{};    // empty: the library's choice (scan_variants)
};

class Scan {
 public:
  // Plans `desc` for the current device (cudaGetDevice): grids, passes, scratch; no launch, no
  // allocation. Throws xr::Error: usage (an unknown id), unsupported (what the variant needs
  // that the device lacks), unavailable (no device).
  explicit Scan(const ScanDesc& desc);
  // The same for a device whose limits were read already, with the tool's knobs.
  Scan(const ScanDesc& desc, const DeviceLimits& device, const ScanTuning& tuning);

  const std::string& variant() const;
  // Whether float results are bitwise the same run to run: the look-back's order of summing
  // predecessors depends on timing (as CUB's).
  bool deterministic() const;
  // Bytes of device scratch enqueue() uses, from a 256-byte aligned address: zero them once
  // before the first enqueue with this Scan.
  std::size_t scratch_size() const;
  // Enqueues on `stream` the inclusive or exclusive scan of `count` elements of dtype at `in`
  // into `out` (not overlapping; 16-byte aligned; scratch to 256 bytes: Error(usage)
  // otherwise), every launch checked. A scratch belongs to one Scan: the look-back tags its
  // tile states with this Scan's count of calls, so its calls on that scratch must be ordered
  // (one stream) and come from one thread at a time.
  void enqueue(cudaStream_t stream, ScanKind kind, const void* in, void* out, void* scratch);
  // The plan, for logs.
  std::string describe() const;

  struct State;

 private:
  StatePtr<State> state_;
};

// The scan ids the current device runs over `t`, the library's choice first, then the rest of
// the ladder from its fast end.
std::vector<std::string> scan_variants(DType t);

}  // namespace xr::cuda
