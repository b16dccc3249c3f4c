// Layer 2 of the CUDA backend for scan: which kernels run with which grid. A ScanPlan is made
// once per (n, dtype, op) outside the timed region (grid choice, occupancy queries, scratch
// layout, CUB's temp-storage query); enqueue_scan() only launches, each launch followed by a
// last-error check. The scan kind (inclusive/exclusive) is a launch argument, not part of the
// plan: both kinds share one plan and one scratch.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "device_limits.hpp"
#include "launch.hpp"
#include "xreduce/primitive.hpp"
#include "xreduce/shapes.hpp"

namespace xr::cuda {

// One entry per CUDA scan variant, in ladder order; the table in variants.cpp maps ids to these.
enum class ScanKernel {
  smem_hillis_steele,       // smem/hillis-steele
  bit_one_layer,            // bit/one-layer
  bit_between_blocks,       // bit/between-blocks
  bit_smem,                 // bit/smem
  bit_unrolled,             // bit/unrolled
  bit_cooperative,          // bit/cooperative
  blelloch_bcao,            // blelloch/bcao
  warp_shuffle_up,          // warp/shuffle-up
  fast_reduce_then_scan,    // fast/reduce-then-scan
  fast_decoupled_lookback,  // fast/decoupled-lookback
  lib_cub,                  // lib/cub
};

// A scan plan. The fields past `n` are the family's to define (each family's dispatch file says
// what its `offsets` and `counts` hold); describe() prints them for `xreduce list`-style output.
struct ScanPlan {
  ScanKernel kernel{};
  DType dtype{};  // as the user asked; with_type_op maps i32 sums to u32 (wrap modulo 2^32)
  Op op{};
  std::size_t n = 0;       // > 0
  unsigned block = 256;    // threads per block of the main kernel
  std::size_t tile = 0;    // elements one block scans at once
  std::size_t tiles = 0;   // tiles of the first level
  unsigned grid = 0;       // blocks of the main launch
  bool one_block = false;  // fast/decoupled-lookback at n <= one_group_max: one block, a carry
  // Scratch the scanner allocates once per plan, zero-filled at allocation only: a family that
  // relies on zeros at the start of a call must restore them itself (or use ScanBuffers::launch).
  std::size_t scratch_bytes = 0;
  std::vector<std::size_t> offsets;  // family-defined, in bytes into scratch, 256-byte aligned
  std::vector<std::size_t> counts;   // family-defined element counts
  std::string describe() const;
};

// Device pointers of one scan() call.
struct ScanBuffers {
  const void* input = nullptr;  // n elements; never written by any scan kernel
  void* output = nullptr;       // n elements
  void* scratch = nullptr;      // plan.scratch_bytes, 256-byte aligned
  // How many enqueue_scan calls ran on this scratch before this one (0 for the first): a
  // family can keep epochs in scratch instead of resetting it every call.
  std::uint64_t launch = 0;
};

// The tool's knobs that change a plan (the library's callers get the defaults).
struct ScanTuning {
  // fast/decoupled-lookback runs as one block up to this n (XR_SCAN_ONE_GROUP_MAX).
  std::uint64_t one_group_max = kScanOneGroupMax;
};

// Printable tuning of a scan kernel, with the measurement that chose it (each family's
// dispatch file holds its own numbers).
Policy scan_policy(ScanKernel k, const DeviceLimits& dev);
// n > 0. Error(unsupported) for a combination a kernel does not implement.
// one_group_max: fast/decoupled-lookback's one-block path up to this n (core's kScanOneGroupMax).
ScanPlan make_scan_plan(ScanKernel k, DType t, Op op, std::size_t n, const DeviceLimits& dev,
                        std::uint64_t one_group_max = kScanOneGroupMax);
void enqueue_scan(const ScanPlan& plan, const ScanBuffers& bufs, ScanKind kind,
                  cudaStream_t stream);

// --- per-family halves, one .cu each ---------------------------------------------------------
namespace detail {
// dispatch_scan_tiled.cu: smem/hillis-steele, blelloch/bcao, warp/shuffle-up (a block-level
// scan per tile, the tile totals scanned recursively by the same kernel, then a uniform add).
Policy policy_scan_tiled(ScanKernel k, const DeviceLimits& dev);
void plan_scan_tiled(ScanPlan& plan, const DeviceLimits& dev);
void enqueue_scan_tiled(const ScanPlan& plan, const ScanBuffers& bufs, ScanKind kind,
                        cudaStream_t stream);
// dispatch_scan_bit.cu: the Fenwick-tree (BIT) scan and its cooperative completion.
Policy policy_scan_bit(ScanKernel k, const DeviceLimits& dev);
void plan_scan_bit(ScanPlan& plan, const DeviceLimits& dev);
void enqueue_scan_bit(const ScanPlan& plan, const ScanBuffers& bufs, ScanKind kind,
                      cudaStream_t stream);
// dispatch_scan_fast.cu: fast/reduce-then-scan, fast/decoupled-lookback.
Policy policy_scan_fast(ScanKernel k, const DeviceLimits& dev);
void plan_scan_fast(ScanPlan& plan, const DeviceLimits& dev, std::uint64_t one_group_max);
void enqueue_scan_fast(const ScanPlan& plan, const ScanBuffers& bufs, ScanKind kind,
                       cudaStream_t stream);
// dispatch_scan_cub.cu: lib/cub.
void plan_scan_cub(ScanPlan& plan, const DeviceLimits& dev);
void enqueue_scan_cub(const ScanPlan& plan, const ScanBuffers& bufs, ScanKind kind,
                      cudaStream_t stream);
}  // namespace detail

}  // namespace xr::cuda
