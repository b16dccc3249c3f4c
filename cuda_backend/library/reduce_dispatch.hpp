// Layer 2 of the CUDA backend for reduce: which kernel runs with which grid, and how many passes
// over partials it takes. A ReducePlan is made once per (n, dtype, op) from the device limits,
// outside the timed region (scratch sizes, occupancy queries, CUB's temp-storage query);
// enqueue_reduce() only launches, each launch followed by a last-error check.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "device_limits.hpp"
#include "launch.hpp"
#include "xreduce/shapes.hpp"

namespace xr::cuda {

// One entry per CUDA reduce variant; the table in reduce_variants.cpp maps ids to these.
enum class ReduceKernel {
  global_neighbored,
  global_neighbored_less,
  global_interleaved,
  global_unroll2,
  global_unroll4,
  global_unroll8,
  global_unroll_warps8,
  global_complete_unroll_warps8,
  global_complete_unroll_template,
  smem_interleaved_divergent,
  smem_interleaved_strided,
  smem_sequential,
  smem_first_add,
  smem_unroll_last_warp,
  smem_complete_unroll,
  smem_multi_element,
  warp_shuffle_down,
  warp_shuffle_xor,
  warp_redux,
  fast_vectorized,
  fast_single_pass,
  lib_cub,
};

// One launch of a multi-pass reduction: `grid` blocks of `block` threads reduce `elems`
// elements from `src` into `grid` partials at `dst`. Offsets are in elements into the scratch
// buffer; kInput / kResult stand for the input array and the one-element result slot.
struct ReduceLaunch {
  static constexpr std::size_t kInput = static_cast<std::size_t>(-1);
  static constexpr std::size_t kResult = static_cast<std::size_t>(-2);
  std::size_t src = kInput;
  std::size_t dst = kResult;
  std::size_t elems = 0;
  unsigned grid = 1;
  unsigned block = 256;
};

struct ReducePlan {
  ReduceKernel kernel{};
  DType dtype{};
  Op op{};
  std::size_t n = 0;
  std::vector<ReduceLaunch> launches;
  std::size_t scratch_bytes = 0;  // device scratch the reducer allocates (zero-filled) once
  std::size_t ticket_offset = 0;  // bytes into scratch: fast/single-pass's atomic counter
  std::string describe() const;   // "2 passes: 1056x256 -> 1x256"
};

Policy reduce_policy(ReduceKernel k, const DeviceLimits& dev);
// n > 0. Throws Error for a combination the kernel does not implement.
ReducePlan make_reduce_plan(ReduceKernel k, DType t, Op op, std::size_t n, const DeviceLimits& dev);

// Device pointers of one reduce() call.
struct ReduceBuffers {
  void* input = nullptr;    // n elements; written by the in-place global/* kernels
  void* scratch = nullptr;  // plan.scratch_bytes, zero-filled at allocation
  void* result = nullptr;   // one element
};
void enqueue_reduce(const ReducePlan& plan, const ReduceBuffers& bufs, cudaStream_t stream);

// --- per-family halves, one .cu each (dispatch_reduce_<family>.cu) ---------------------------
namespace detail {
// Core's pass chain (xreduce/shapes.hpp) until one block remains: `shape(m)` gives the grid and
// block for m elements, `elem_bytes` is one partial's (the accumulator's, not the input's).
// Partials of successive passes sit one after another in scratch, each segment starting on a
// 16-byte boundary so vector loads stay aligned; the last launch writes the result slot.
template <class Shape>
void chain_launches(ReducePlan& plan, std::size_t elem_bytes, Shape shape);

void plan_reduce_global(ReducePlan& plan, const DeviceLimits& dev);
void enqueue_reduce_global(const ReducePlan& plan, const ReduceBuffers& bufs, cudaStream_t stream);
void plan_reduce_smem(ReducePlan& plan, const DeviceLimits& dev);
void enqueue_reduce_smem(const ReducePlan& plan, const ReduceBuffers& bufs, cudaStream_t stream);
void plan_reduce_warp(ReducePlan& plan, const DeviceLimits& dev);
void enqueue_reduce_warp(const ReducePlan& plan, const ReduceBuffers& bufs, cudaStream_t stream);
void plan_reduce_fast(ReducePlan& plan, const DeviceLimits& dev);
void enqueue_reduce_fast(const ReducePlan& plan, const ReduceBuffers& bufs, cudaStream_t stream);
void plan_reduce_cub(ReducePlan& plan, const DeviceLimits& dev);
void enqueue_reduce_cub(const ReducePlan& plan, const ReduceBuffers& bufs, cudaStream_t stream);
}  // namespace detail

// Resolves a launch's src/dst to device pointers; `elem_bytes` is a partial's size.
inline void* launch_ptr(std::size_t off, const ReduceBuffers& b, std::size_t elem_bytes) {
  if (off == ReduceLaunch::kInput) return b.input;
  if (off == ReduceLaunch::kResult) return b.result;
  return static_cast<char*>(b.scratch) + off * elem_bytes;
}

// Calls launch.template operator()<In, Out>(src, dst) for one launch of a chain over storage
// type T with accumulator A: a launch reads T from the input or A from the partials, and writes A
// partials or the T result (so a 16-bit result is rounded once, by the last launch).
template <class T, class A, class Launch>
void with_launch_types(const ReduceLaunch& l, const ReduceBuffers& b, Launch&& launch) {
  void* src = launch_ptr(l.src, b, sizeof(A));
  void* dst = launch_ptr(l.dst, b, sizeof(A));
  const bool from_input = l.src == ReduceLaunch::kInput, to_result = l.dst == ReduceLaunch::kResult;
  if (from_input && to_result)
    launch.template operator()<T, T>(static_cast<const T*>(src), static_cast<T*>(dst));
  else if (from_input)
    launch.template operator()<T, A>(static_cast<const T*>(src), static_cast<A*>(dst));
  else if (to_result)
    launch.template operator()<A, T>(static_cast<const A*>(src), static_cast<T*>(dst));
  else
    launch.template operator()<A, A>(static_cast<const A*>(src), static_cast<A*>(dst));
}

template <class Shape>
void detail::chain_launches(ReducePlan& plan, std::size_t elem_bytes, Shape shape) {
  std::vector<ReduceLaunch> shapes;  // shape(m) of each pass, as core's chain asks for them
  const std::vector<ReducePass> passes =
      reduce_passes(plan.n, 16 / elem_bytes, [&](std::uint64_t m) -> std::uint64_t {
        shapes.push_back(shape(static_cast<std::size_t>(m)));
        return shapes.back().grid;
      });
  for (std::size_t i = 0; i < passes.size(); ++i) {
    ReduceLaunch l = shapes[i];
    l.src = i == 0 ? ReduceLaunch::kInput : passes[i].in_offset;
    l.dst = i + 1 == passes.size() ? ReduceLaunch::kResult : passes[i].out_offset;
    l.elems = passes[i].count;
    plan.launches.push_back(l);
  }
  // Scratch holds the partials of every launch but the last, which writes the result slot.
  plan.scratch_bytes = passes.back().out_offset * elem_bytes;
}

}  // namespace xr::cuda
