// Layer 2 of the CUDA backend: which kernel runs with which grid, and how many passes over
// partials it takes. A Plan is computed once per (n, dtype, op) from the device limits, outside
// the timed region (scratch sizes, occupancy queries, CUB's temp-storage query); enqueue() only
// launches. Every launch is followed by a last-error check.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <vector>

#include "context.hpp"
#include "xreduce/error.hpp"
#include "xreduce/types.hpp"

namespace xr::cuda {

// One entry per CUDA variant; the table in variants.cpp maps ids to these.
enum class Kernel {
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

// Tuning as data (STYLE.md point 5): printable, and each constant's comment names the
// measurement that chose it.
struct Policy {
  int block_threads = 256;
  int items_per_thread = 1;   // elements each thread folds before the block-level tree
  int vector_bytes = 4;       // width of one load
  int max_blocks_per_sm = 0;  // 0: one block per data block (no grid cap)
  const char* chosen_by = "";
  std::string to_string() const;
};

// One launch of a multi-pass reduction: `grid` blocks of `block` threads reduce `elems`
// elements from `src` into `grid` partials at `dst`. Offsets are in elements into the scratch
// buffer; kInput / kResult stand for the input array and the one-element result slot.
struct Pass {
  static constexpr std::size_t kInput = static_cast<std::size_t>(-1);
  static constexpr std::size_t kResult = static_cast<std::size_t>(-2);
  std::size_t src = kInput;
  std::size_t dst = kResult;
  std::size_t elems = 0;
  unsigned grid = 1;
  unsigned block = 256;
};

struct Plan {
  Kernel kernel{};
  DType dtype{};
  Op op{};
  std::size_t n = 0;
  std::vector<Pass> passes;
  std::size_t scratch_bytes = 0;  // device scratch the reducer allocates (zero-filled) once
  std::size_t ticket_offset = 0;  // bytes into scratch: fast/single-pass's atomic counter
  std::string describe() const;   // "2 passes: 1056x256 -> 1x256"
};

// The (dtype, op) a kernel is instantiated for: i32 and i64 sums run as u32 and u64 sums, same
// bits, so the wrap-around modulo 2^32 and 2^64 is defined behaviour.
struct TypeOp {
  DType dtype;
  Op op;
};
inline TypeOp compute_type(DType t, Op op) {
  if (op == Op::sum && t == DType::i32) return {DType::u32, op};
  if (op == Op::sum && t == DType::i64) return {DType::u64, op};
  return {t, op};
}

Policy policy(Kernel k, const DeviceLimits& dev);
// n > 0. Throws Error for a combination the kernel does not implement.
Plan make_plan(Kernel k, DType t, Op op, std::size_t n, const DeviceLimits& dev);

// Device pointers of one reduce() call.
struct Buffers {
  void* input = nullptr;    // n elements; written by the in-place global/* kernels
  void* scratch = nullptr;  // plan.scratch_bytes, zero-filled at allocation
  void* result = nullptr;   // one element
};
void enqueue(const Plan& plan, const Buffers& bufs, cudaStream_t stream);

// --- per-family halves, one .cu each (dispatch_<family>.cu) -----------------------------------
namespace detail {
// Chains passes until one block remains; `shape(m)` gives the grid and block for m elements.
// `elem_bytes`: bytes of one partial (the accumulator's, not the input element's).
template <class Shape>
void chain_passes(Plan& plan, std::size_t elem_bytes, Shape shape);

void plan_global(Plan& plan, const DeviceLimits& dev);
void enqueue_global(const Plan& plan, const Buffers& bufs, cudaStream_t stream);
void plan_smem(Plan& plan, const DeviceLimits& dev);
void enqueue_smem(const Plan& plan, const Buffers& bufs, cudaStream_t stream);
void plan_warp(Plan& plan, const DeviceLimits& dev);
void enqueue_warp(const Plan& plan, const Buffers& bufs, cudaStream_t stream);
void plan_fast(Plan& plan, const DeviceLimits& dev);
void enqueue_fast(const Plan& plan, const Buffers& bufs, cudaStream_t stream);
void plan_cub(Plan& plan, const DeviceLimits& dev);
void enqueue_cub(const Plan& plan, const Buffers& bufs, cudaStream_t stream);
}  // namespace detail

// The seams of Backend::flush_cache / measure_read_bandwidth_gbps (dispatch_stream.cu).
// Reads `bytes` (a multiple of 16) with 16-byte loads over `waves` resident waves of blocks;
// per-block results land in `sink`, which must hold waves * stream_read_blocks(dev) words.
unsigned stream_read_blocks(const DeviceLimits& dev);
void enqueue_stream_read(const void* buf, std::size_t bytes, unsigned* sink,
                         const DeviceLimits& dev, cudaStream_t stream, unsigned waves = 1);

inline std::size_t ceil_div(std::size_t a, std::size_t b) {
  return (a + b - 1) / b;
}

// A block count as a grid dimension; CUDA's x-dimension limit is 2^31 - 1.
inline unsigned to_grid(std::size_t blocks) {
  if (blocks > 0x7fffffffu)
    throw Error(ErrorCategory::unsupported,
                "cuda: " + std::to_string(blocks) + " blocks exceed the grid limit 2^31-1");
  return static_cast<unsigned>(blocks);
}

// Resolves a pass's src/dst to device pointers; `elem_bytes` is a partial's size.
inline void* pass_ptr(std::size_t off, const Buffers& b, std::size_t elem_bytes) {
  if (off == Pass::kInput) return b.input;
  if (off == Pass::kResult) return b.result;
  return static_cast<char*>(b.scratch) + off * elem_bytes;
}

// Calls launch.template operator()<In, Out>(src, dst) for one pass of a chain over storage type
// T with accumulator A: a pass reads T from the input or A from the partials, and writes A
// partials or the T result (so a 16-bit result is rounded once, by the last pass).
template <class T, class A, class Launch>
void with_pass_types(const Pass& p, const Buffers& b, Launch&& launch) {
  void* src = pass_ptr(p.src, b, sizeof(A));
  void* dst = pass_ptr(p.dst, b, sizeof(A));
  const bool from_input = p.src == Pass::kInput, to_result = p.dst == Pass::kResult;
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
void detail::chain_passes(Plan& plan, std::size_t elem_bytes, Shape shape) {
  // Partials of successive passes sit one after another, each segment starting on a 16-byte
  // boundary so vector loads stay aligned.
  const std::size_t align = 16 / elem_bytes;
  std::size_t m = plan.n, src = Pass::kInput, next = 0;
  for (;;) {
    Pass p = shape(m);
    p.src = src;
    p.elems = m;
    if (p.grid == 1) {
      p.dst = Pass::kResult;
      plan.passes.push_back(p);
      break;
    }
    p.dst = next;
    plan.passes.push_back(p);
    src = next;
    next += (p.grid + align - 1) / align * align;
    m = p.grid;
  }
  plan.scratch_bytes = next * elem_bytes;
}

}  // namespace xr::cuda
