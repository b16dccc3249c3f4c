// Layer 2 of the CUDA backend for sort: which kernels run with which grid. A sort::Plan is made
// once per (dtype, n, order, bit range, values) outside the timed region (tiles, passes, grids,
// occupancy queries, the temporary storage's layout, CUB's temp-storage query); enqueue_sort()
// only clears what the plan says it clears and launches, each launch followed by a last-error
// check.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cub_sort_count.hpp"
#include "cuda_check.hpp"
#include "device_limits.hpp"
#include "launch.hpp"
#include "xreduce/primitive.hpp"
#include "xreduce/sort_desc.hpp"
#include "xreduce/sort_plan.hpp"

namespace xr::cuda {

namespace sort {
using namespace xr::sort;  // core's schedule vocabulary, beside this API's plan
// One entry per CUDA sort variant, in ladder order; sort_table.cpp maps ids to these.
enum class Kernel {
  bitonic_smem,            // bitonic/smem
  radix_reduce_then_scan,  // radix/reduce-then-scan
  radix_onesweep,          // radix/onesweep
  lib_cub,                 // lib/cub
};

// A sort plan: the description it was made for, its launches' shape and where each part of its
// temporary storage starts; describe() prints them for logs.
struct Plan {
  // Byte offsets into the temporary storage, each 256-byte aligned. A family sets the parts it
  // uses; the others stay 0 and are never read.
  struct Temp {
    std::size_t alternate_keys = 0;    // radix: the keys between digit passes
    std::size_t alternate_values = 0;  // radix, pairs: the values between digit passes
    std::size_t digit_counts = 0;  // kRadix 64-bit counts: per block (reduce-then-scan), per pass
                                   // (onesweep's histograms)
    std::size_t bins = 0;          // onesweep: two sets of kRadix 64-bit indices per pass
    std::size_t tile_counter = 0;  // onesweep: the counter; the look-back status follows it
    std::size_t items = 0;         // bitonic: the padded items
  };

  Kernel kernel{};
  SortDesc desc{};      // count > 0, bits effective (check_sort_desc)
  unsigned passes = 0;  // radix: 8-bit digit passes; bitonic: merge stages past the tile
  std::vector<DigitPass> digit_passes;  // radix: core's schedule of the passes
  unsigned block = 0;                   // threads per block of the main kernel
  std::size_t tile = 0;                 // keys one block sorts at once
  std::size_t tiles = 0;                // tiles over n (bitonic: over the padded power of two)
  unsigned grid = 0;                    // blocks of the main launch
  std::size_t temp_bytes = 0;
  Temp at;                          // where temp's parts start
  std::size_t padded = 0;           // bitonic: the items, n padded to a power of two
  std::size_t tiles_per_block = 0;  // reduce-then-scan: each block's chunk
  std::size_t wave = 0;  // blocks resident at once: onesweep's histogram, reduce-then-scan's
                         // downsweep (a call of fewer keys takes its grid from it)
  std::string note;      // family-defined, for describe()
  std::string tuning;    // the tuning entry the plan used, with its evidence
  CubCount cub_count{};  // lib/cub: num_items' width (note says why)
  std::string describe() const;
};

// The tool's knobs that change a sort's plan (the library's callers get the defaults).
struct Tuning {
  // lib/cub's num_items forced to 32 or 64 bits (XR_CUB_SORT_COUNT), not the table's choice.
  std::optional<CubCount> cub_count;
};

// The keys of one enqueue_sort() call: `n` (1 to the plan's desc.count), or, with `count`, the
// 32-bit word there when the kernels run (at most desc.count, the keys the launches are for;
// n is then desc.count).
struct Call {
  std::size_t n = 0;
  const unsigned* count = nullptr;
};

// Device pointers of one enqueue_sort() call.
struct Buffers {
  const void* keys_in = nullptr;  // n keys; never written
  void* keys_out = nullptr;
  const void* values_in = nullptr;  // pairs: n values, as desc.values says; never written
  void* values_out = nullptr;       // pairs
  void* temp = nullptr;             // plan.temp_bytes, 256-byte aligned; needs no initialization
};
}  // namespace sort

// Printable tuning of a sort kernel, with how it was chosen (each family's dispatch file holds
// its own numbers).
Policy sort_policy(sort::Kernel k, const DeviceLimits& dev);
// desc.count > 0 and desc.bits effective (check_sort_desc).
sort::Plan make_sort_plan(sort::Kernel k, const SortDesc& desc, const DeviceLimits& dev,
                          const sort::Tuning& tuning = {});
// Launches `call` over the plan's temporary storage: its grids from call.n (no allocation), or
// the plan's with the count on the device. Error(unsupported) for a count on the device that the
// variant cannot read (lib/cub: CUB takes its count from the host) or past one onesweep launch a
// digit (sort_counted_reason).
void enqueue_sort(const sort::Plan& plan, const sort::Call& call, const sort::Buffers& bufs,
                  cudaStream_t stream);
// Why `plan` takes no count on the device; empty where it does.
std::string sort_counted_reason(const sort::Plan& plan);

// --- per-family halves, one .cu each ---------------------------------------------------------
namespace detail {
// dispatch_sort_bitonic.cu: bitonic/smem.
Policy policy_sort_bitonic(const DeviceLimits& dev);
void plan_sort_bitonic(sort::Plan& plan, const DeviceLimits& dev);
void enqueue_sort_bitonic(const sort::Plan& plan, const sort::Call& call, const sort::Buffers& bufs,
                          cudaStream_t stream);
// dispatch_sort_radix.cu: radix/reduce-then-scan.
Policy policy_sort_radix(const DeviceLimits& dev);
void plan_sort_radix(sort::Plan& plan, const DeviceLimits& dev);
void enqueue_sort_radix(const sort::Plan& plan, const sort::Call& call, const sort::Buffers& bufs,
                        cudaStream_t stream);
// dispatch_sort_onesweep.cu: radix/onesweep.
Policy policy_sort_onesweep(const DeviceLimits& dev);
void plan_sort_onesweep(sort::Plan& plan, const DeviceLimits& dev);
void enqueue_sort_onesweep(const sort::Plan& plan, const sort::Call& call,
                           const sort::Buffers& bufs, cudaStream_t stream);
// The most keys onesweep takes with its count on the device: one launch a digit.
std::size_t onesweep_counted_max_keys(const sort::Plan& plan);
// dispatch_sort_cub.cu: lib/cub.
void plan_sort_cub(sort::Plan& plan, const DeviceLimits& dev, const sort::Tuning& tuning);
void enqueue_sort_cub(const sort::Plan& plan, std::size_t n, const sort::Buffers& bufs,
                      cudaStream_t stream);
}  // namespace detail

}  // namespace xr::cuda
