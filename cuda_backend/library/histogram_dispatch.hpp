// Layer 2 of the CUDA backend for histogram: which kernels run with which grid. A
// histogram::Plan is made once per desc (sample type, count, levels) outside the timed region: the
// bin rule's constants (EvenBins's, computed once here), grids from occupancy queries, the shared
// memory and sub-histograms each block keeps, the temporary storage's layout, CUB's
// temp-storage query. enqueue_histogram() only zeroes what the call overwrites and launches, each
// launch followed by a last-error check.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cub_sort_count.hpp"
#include "cuda_check.hpp"
#include "device_limits.hpp"
#include "launch.hpp"
#include "xreduce/histogram.hpp"
#include "xreduce/histogram_desc.hpp"

namespace xr::cuda {

namespace histogram {
// One entry per CUDA histogram variant, in ladder order; histogram_table.cpp maps ids to these.
enum class Kernel {
  atomic_global,        // atomic/global
  atomic_privatized,    // atomic/privatized
  atomic_coarsened,     // atomic/coarsened
  atomic_aggregated,    // atomic/aggregated
  subgroup_aggregated,  // subgroup/aggregated
  fast_replicated,      // fast/replicated
  lib_cub,              // lib/cub
};

// How an integer sample's bin is computed from d = sample - lower: each path gives EvenBins's
// (u64)d * bins / width for every sample its plan takes.
enum class IntegerPath : std::uint8_t {
  identity,  // width == bins: the bin is d
  narrow,    // width < 2^32 and (width - 1) * bins < 2^32: d * bins / width in 32 bits
  wide,      // otherwise: in 64 bits
};
std::string_view to_string(IntegerPath p);

// The bin rule's constants for the plan's sample type, computed on the host once, by EvenBins's
// formulas (xreduce/histogram.hpp), so every kernel and the host reference bin alike.
struct BinParams {
  std::uint32_t bins = 0;
  // Float samples: lower, upper and scale = T(bins) / T(upper - lower), each rounded to the
  // samples' type T (an f32 value held exactly in the double).
  double lower = 0, upper = 0, scale = 0;
  // Integer samples: lower's low 32 bits (a sample's d is its low 32 bits minus these, modulo
  // 2^32: exact for every sample of the six types in range, and past width - 1 for every other),
  // the width upper - lower (1 to 2^32) and the path.
  std::uint32_t offset = 0;
  std::uint64_t width = 0;
  IntegerPath path = IntegerPath::wide;
};

// The tool's knobs that change a histogram's plan (the library's callers get the defaults).
struct Tuning {
  // fast/replicated's copies lane-banked wherever their bins fit the shared memory (true), or
  // never (false), instead of where the tuning table says (XR_CUDA_HISTOGRAM_LAYOUT).
  std::optional<bool> lane_banked;
};

// A histogram plan: the description it was made for, its launches' shape and where each part of
// its temporary storage starts; describe() prints them for logs.
struct Plan {
  // Byte offsets into the temporary storage, each 256-byte aligned. A family sets the parts it
  // uses; the others stay 0 and are never read.
  struct Temp {
    std::size_t copies = 0;  // fast/replicated past shared memory: `copies` copies of the bins
    std::size_t counts = 0;  // lib/cub: an accumulating call's counts, before they are added
    std::size_t cub = 0;     // lib/cub: CUB's temporary storage
  };

  Kernel kernel{};
  HistogramDesc desc{};  // count > 0, checked (check_histogram_desc)
  BinParams bin{};
  unsigned block = 0;                // threads per block of the main kernel
  unsigned grid = 0;                 // its blocks for desc.count samples (a call of fewer: fewer)
  std::size_t items_per_thread = 0;  // samples a thread counts at desc.count, at most
  std::size_t wave = 0;              // blocks resident at once, where the grid is capped at a wave
  std::size_t shared_bytes = 0;      // the main kernel's dynamic shared memory
  unsigned copies = 0;       // sub-histograms: per block in shared memory, or in global memory
  unsigned copy_stride = 0;  // counters from one copy to the next (fast/replicated)
  // fast/replicated: the bins split into `slices` ranges of slice_bins, one a grid row: each
  // row's blocks read every sample and count the bins of their range in shared memory.
  unsigned slices = 1;
  unsigned slice_bins = 0;
  bool counters_in_global = false;  // the bins do not fit shared memory: counted in global
  // fast/replicated: the copies lane-banked (bin b of lane l at counter 32 b + l of copy warp %
  // copies; copy_stride 32 bins) instead of a copy a lane.
  bool lane_banked = false;
  std::size_t temp_bytes = 0;
  Temp at;                 // where temp's parts start
  CubCount cub_samples{};  // lib/cub: num_samples' width (note says why)
  std::string note;        // family-defined, for describe()
  std::string tuning;      // the policy the plan used, with its evidence
  std::string describe() const;
};

// The samples of one enqueue_histogram() call: `n` (1 to the plan's desc.count), or, with
// `count`, the 32-bit word there when the kernels run (at most desc.count, the samples the
// launches are for; n is then desc.count). `output`: whether the counts are overwritten (zeroed
// on the stream first) or added to.
struct Call {
  std::size_t n = 0;
  const unsigned* count = nullptr;
  HistogramOutput output = HistogramOutput::overwrite;
};

// Device pointers of one enqueue_histogram() call.
struct Buffers {
  const void* samples = nullptr;  // n samples of desc.dtype, element-aligned; never written
  void* counts = nullptr;         // desc.levels.bins counters of desc.levels.counts
  void* temp = nullptr;           // plan.temp_bytes, 256-byte aligned; needs no initialization
};
}  // namespace histogram

// Printable tuning of a histogram kernel, with how it was chosen (each family's dispatch file
// holds its own numbers).
Policy histogram_policy(histogram::Kernel k, const DeviceLimits& dev);
// EvenBins's constants for `desc`'s sample type and levels (checked by check_histogram_desc).
histogram::BinParams histogram_bin_params(const HistogramDesc& desc);
// desc.count > 0 and desc checked (check_histogram_desc).
histogram::Plan make_histogram_plan(histogram::Kernel k, const HistogramDesc& desc,
                                    const DeviceLimits& dev, const histogram::Tuning& tuning = {});
// Launches `call` over the plan's temporary storage: its grids from call.n (no allocation), or
// the plan's with the count on the device. Error(unsupported) for a count on the device that the
// variant cannot read (histogram_counted_reason).
void enqueue_histogram(const histogram::Plan& plan, const histogram::Call& call,
                       const histogram::Buffers& bufs, cudaStream_t stream);
// Why `plan` takes no count on the device; empty where it does.
std::string histogram_counted_reason(const histogram::Plan& plan);

// --- per-family halves, one .cu each ---------------------------------------------------------
namespace detail {
// histogram_dispatch.cpp: an overwriting call's counts zeroed on the stream (cudaMemsetAsync).
void zero_counts(const histogram::Plan& plan, void* counts, cudaStream_t stream);
// dispatch_histogram_atomic.cu: atomic/global, atomic/privatized, atomic/coarsened,
// atomic/aggregated, subgroup/aggregated.
Policy policy_histogram_atomic(histogram::Kernel k, const DeviceLimits& dev);
void plan_histogram_atomic(histogram::Plan& plan, const DeviceLimits& dev);
void enqueue_histogram_atomic(const histogram::Plan& plan, const histogram::Call& call,
                              const histogram::Buffers& bufs, cudaStream_t stream);
// dispatch_histogram_fast.cu: fast/replicated.
Policy policy_histogram_fast(const DeviceLimits& dev);
void plan_histogram_fast(histogram::Plan& plan, const DeviceLimits& dev,
                         const histogram::Tuning& tuning);
void enqueue_histogram_fast(const histogram::Plan& plan, const histogram::Call& call,
                            const histogram::Buffers& bufs, cudaStream_t stream);
// dispatch_histogram_cub.cu: lib/cub.
void plan_histogram_cub(histogram::Plan& plan, const DeviceLimits& dev);
void enqueue_histogram_cub(const histogram::Plan& plan, const histogram::Call& call,
                           const histogram::Buffers& bufs, cudaStream_t stream);
}  // namespace detail

}  // namespace xr::cuda
