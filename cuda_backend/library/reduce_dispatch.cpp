// Reduce's policies (tuning as data) and the switch from a ReduceKernel to its family's planner
// and launcher.
#include "reduce_dispatch.hpp"

#include <string>

#include "xreduce/error.hpp"

namespace xr::cuda {
namespace {

enum class Family { global, smem, warp, fast, cub };

Family family_of(ReduceKernel k) {
  if (k <= ReduceKernel::global_complete_unroll_template) return Family::global;
  if (k <= ReduceKernel::smem_multi_element) return Family::smem;
  if (k <= ReduceKernel::warp_redux) return Family::warp;
  if (k <= ReduceKernel::fast_single_pass) return Family::fast;
  return Family::cub;
}

// A shared id's policy: core's tile (threads, items), 4-byte loads.
Policy shared(const char* id, int max_blocks_per_sm, const char* chosen_by) {
  const TileShape s = shared_shape(Primitive::reduce, id);
  return {int(s.threads), int(s.items), 4, max_blocks_per_sm, chosen_by};
}

}  // namespace

std::string Policy::to_string() const {
  std::string s = std::to_string(block_threads) + " threads x " + std::to_string(items_per_thread) +
                  " items, " + std::to_string(vector_bytes) + "-byte loads";
  if (max_blocks_per_sm) s += ", <= " + std::to_string(max_blocks_per_sm) + " blocks/SM";
  if (*chosen_by) s += " (" + std::string(chosen_by) + ")";
  return s;
}

Policy reduce_policy(ReduceKernel k, const DeviceLimits& dev) {
  using K = ReduceKernel;
  // One resident wave of 256-thread blocks: what the grid-stride kernels cap their grid at.
  const int wave_256 = dev.max_threads_per_sm > 0 ? dev.max_threads_per_sm / 256 : 8;
  switch (k) {
    // Block 512 is the classic kernels' (their table was taken at 2^24 i32, block 512): kept so the
    // global/* ladder reproduces that table row for row.
    case K::global_neighbored:
    case K::global_neighbored_less:
    case K::global_interleaved:
      return {512, 1, 4, 0, "classic in-place table: block 512"};
    case K::global_unroll2:
      return {512, 2, 4, 0, "classic in-place table: block 512, grid/2"};
    case K::global_unroll4:
      return {512, 4, 4, 0, "classic in-place table: block 512, grid/4"};
    case K::global_unroll8:
    case K::global_unroll_warps8:
    case K::global_complete_unroll_warps8:
    case K::global_complete_unroll_template:
      return {512, 8, 4, 0, "classic in-place table: block 512, grid/8"};
    // The Harris ladder: core's shared shapes (the measurements are there).
    case K::smem_interleaved_divergent:
      return shared("smem/interleaved-divergent", 0, "core's shape; H200 2^28 f32 416 GB/s");
    case K::smem_interleaved_strided:
      return shared("smem/interleaved-strided", 0, "core's shape");
    case K::smem_sequential:
      return shared("smem/sequential", 0, "core's shape; H200 2^28 f32 870 GB/s");
    case K::smem_first_add:
      return shared("smem/first-add", 0, "core's shape; H200 2^28 f32 1616 GB/s");
    case K::smem_unroll_last_warp:
      return shared("smem/unroll-last-warp", 0, "core's shape");
    case K::smem_complete_unroll:
      return shared("smem/complete-unroll", 0, "core's shape; H200 2^28 f32 2281 GB/s");
    case K::smem_multi_element:
      return shared("smem/multi-element", wave_256, "core's shape, one resident wave");
    // The classic warp-shuffle reduce: 512 threads, at most 1024 blocks, then <<<1, 1024>>> over
    // the partials.
    case K::warp_shuffle_down:
    case K::warp_shuffle_xor:
    case K::warp_redux:
      return {512, 1, 4, 0,
              "classic warp-shuffle reduce: 512 threads, grid <= 1024, then 1 x 1024"};
    // 256 threads x 4 loads of 16 bytes in flight (16 elements of 4 bytes: core's shape), one
    // resident wave (8 blocks/SM); the sweep is core's chosen_by.
    case K::fast_vectorized:
    case K::fast_single_pass: {
      const TileShape s = shared_shape(Primitive::reduce, "fast/vectorized");
      return {int(s.threads), int(s.items), 16, wave_256,
              "H200 2^28 f32: 4331 GB/s, 0.994x CUB (xreduce_cuda_tune)"};
    }
    case K::lib_cub:
      return {0, 0, 0, 0, "CUB's own tuning policies"};
  }
  return {};
}

ReducePlan make_reduce_plan(ReduceKernel k, DType t, Op op, std::size_t n,
                            const DeviceLimits& dev) {
  ReducePlan plan;
  plan.kernel = k;
  plan.dtype = t;
  plan.op = op;
  plan.n = n;
  switch (family_of(k)) {
    case Family::global:
      detail::plan_reduce_global(plan, dev);
      break;
    case Family::smem:
      detail::plan_reduce_smem(plan, dev);
      break;
    case Family::warp:
      detail::plan_reduce_warp(plan, dev);
      break;
    case Family::fast:
      detail::plan_reduce_fast(plan, dev);
      break;
    case Family::cub:
      detail::plan_reduce_cub(plan, dev);
      break;
  }
  return plan;
}

void enqueue_reduce(const ReducePlan& plan, const ReduceBuffers& bufs, cudaStream_t stream) {
  switch (family_of(plan.kernel)) {
    case Family::global:
      return detail::enqueue_reduce_global(plan, bufs, stream);
    case Family::smem:
      return detail::enqueue_reduce_smem(plan, bufs, stream);
    case Family::warp:
      return detail::enqueue_reduce_warp(plan, bufs, stream);
    case Family::fast:
      return detail::enqueue_reduce_fast(plan, bufs, stream);
    case Family::cub:
      return detail::enqueue_reduce_cub(plan, bufs, stream);
  }
}

std::string ReducePlan::describe() const {
  if (launches.empty()) return "library call";
  std::string s =
      std::to_string(launches.size()) + (launches.size() == 1 ? " pass: " : " passes: ");
  for (std::size_t i = 0; i < launches.size(); ++i) {
    if (i) s += " -> ";
    s += std::to_string(launches[i].grid) + "x" + std::to_string(launches[i].block);
  }
  return s;
}

}  // namespace xr::cuda
