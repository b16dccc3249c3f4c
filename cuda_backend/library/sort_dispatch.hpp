// Layer 2 of the CUDA backend for sort: which kernels run with which grid. A SortPlan is made once
// per (dtype, n, order, bit range, pairs) outside the timed region (tiles, passes, grids,
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
#include "xreduce/sort_plan.hpp"

namespace xr::cuda {

// One entry per CUDA sort variant, in ladder order; sort_table.cpp maps ids to these.
enum class SortKernel {
  bitonic_smem,            // bitonic/smem
  radix_reduce_then_scan,  // radix/reduce-then-scan
  radix_onesweep,          // radix/onesweep
  lib_cub,                 // lib/cub
};

// What one sort computes, apart from the data.
struct SortProblem {
  DType dtype{};
  std::size_t n = 0;  // > 0
  SortOrder order{};
  BitRange bits{};  // effective: begin < end <= the key's width
  bool pairs = false;
};

// A sort plan. The fields past `problem` are the family's to define (each family's dispatch file
// says what its `offsets` and `counts` hold); describe() prints them for logs.
struct SortPlan {
  SortKernel kernel{};
  SortProblem problem{};
  unsigned passes = 0;  // radix: 8-bit digit passes; bitonic: merge stages past the tile
  std::vector<DigitPass> digit_passes;     // radix: core's schedule of the passes
  std::vector<BitonicStep> bitonic_steps;  // bitonic: core's network
  std::vector<SortPortion> portions;       // onesweep: core's launches of a pass
  unsigned block = 0;                      // threads per block of the main kernel
  std::size_t tile = 0;                    // keys one block sorts at once
  std::size_t tiles = 0;                   // tiles over n (bitonic: over the padded power of two)
  unsigned grid = 0;                       // blocks of the main launch
  std::size_t temp_bytes = 0;
  std::vector<std::size_t> offsets;  // family-defined, in bytes into temp, 256-byte aligned
  std::vector<std::size_t> counts;   // family-defined element counts
  std::string note;                  // family-defined, for describe()
  CubCount cub_count{};              // lib/cub: num_items' width (note says why)
  std::string describe() const;
};

// The tool's knobs that change a sort's plan (the library's callers get the defaults).
struct SortTuning {
  // lib/cub's num_items forced to 32 or 64 bits (XR_CUB_SORT_COUNT), not the table's choice.
  std::optional<CubCount> cub_count;
};

// Device pointers of one enqueue_sort() call.
struct SortBuffers {
  const void* keys_in = nullptr;  // n keys; never written
  void* keys_out = nullptr;
  const std::uint32_t* values_in = nullptr;  // pairs: n values; never written
  std::uint32_t* values_out = nullptr;       // pairs
  void* temp = nullptr;  // plan.temp_bytes, 256-byte aligned; needs no initialization
};

// Printable tuning of a sort kernel, with how it was chosen (each family's dispatch file holds
// its own numbers).
Policy sort_policy(SortKernel k, const DeviceLimits& dev);
// problem.n > 0 and problem.bits effective.
SortPlan make_sort_plan(SortKernel k, const SortProblem& problem, const DeviceLimits& dev,
                        const SortTuning& tuning = {});
void enqueue_sort(const SortPlan& plan, const SortBuffers& bufs, cudaStream_t stream);

// --- per-family halves, one .cu each ---------------------------------------------------------
namespace detail {
// dispatch_sort_bitonic.cu: bitonic/smem.
Policy policy_sort_bitonic(const DeviceLimits& dev);
void plan_sort_bitonic(SortPlan& plan, const DeviceLimits& dev);
void enqueue_sort_bitonic(const SortPlan& plan, const SortBuffers& bufs, cudaStream_t stream);
// dispatch_sort_radix.cu: radix/reduce-then-scan.
Policy policy_sort_radix(const DeviceLimits& dev);
void plan_sort_radix(SortPlan& plan, const DeviceLimits& dev);
void enqueue_sort_radix(const SortPlan& plan, const SortBuffers& bufs, cudaStream_t stream);
// dispatch_sort_onesweep.cu: radix/onesweep.
Policy policy_sort_onesweep(const DeviceLimits& dev);
void plan_sort_onesweep(SortPlan& plan, const DeviceLimits& dev);
void enqueue_sort_onesweep(const SortPlan& plan, const SortBuffers& bufs, cudaStream_t stream);
// dispatch_sort_cub.cu: lib/cub.
void plan_sort_cub(SortPlan& plan, const DeviceLimits& dev, const SortTuning& tuning);
void enqueue_sort_cub(const SortPlan& plan, const SortBuffers& bufs, cudaStream_t stream);
}  // namespace detail

}  // namespace xr::cuda
