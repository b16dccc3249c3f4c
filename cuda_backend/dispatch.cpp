// Policies (tuning as data) and the switch from a Kernel to its family's planner and launcher.
#include "dispatch.hpp"

#include <string>

#include "xreduce/error.hpp"

namespace xr::cuda {
namespace {

enum class Family { global, smem, warp, fast, cub };

Family family_of(Kernel k) {
  if (k <= Kernel::global_complete_unroll_template) return Family::global;
  if (k <= Kernel::smem_multi_element) return Family::smem;
  if (k <= Kernel::warp_redux) return Family::warp;
  if (k <= Kernel::fast_single_pass) return Family::fast;
  return Family::cub;
}

}  // namespace

std::string Policy::to_string() const {
  std::string s = std::to_string(block_threads) + " threads x " + std::to_string(items_per_thread) +
                  " items, " + std::to_string(vector_bytes) + "-byte loads";
  if (max_blocks_per_sm) s += ", <= " + std::to_string(max_blocks_per_sm) + " blocks/SM";
  if (*chosen_by) s += " (" + std::string(chosen_by) + ")";
  return s;
}

Policy policy(Kernel k, const DeviceLimits& dev) {
  // One resident wave of 256-thread blocks: what the grid-stride kernels cap their grid at.
  const int wave_256 = dev.max_threads_per_sm > 0 ? dev.max_threads_per_sm / 256 : 8;
  switch (k) {
    // Block 512 is seed 000's (its table was taken at 2^24 i32, block 512): kept so the global/*
    // ladder reproduces that table row for row.
    case Kernel::global_neighbored:
    case Kernel::global_neighbored_less:
    case Kernel::global_interleaved:
      return {512, 1, 4, 0, "seed 000: block 512"};
    case Kernel::global_unroll2:
      return {512, 2, 4, 0, "seed 000: block 512, grid/2"};
    case Kernel::global_unroll4:
      return {512, 4, 4, 0, "seed 000: block 512, grid/4"};
    case Kernel::global_unroll8:
    case Kernel::global_unroll_warps8:
    case Kernel::global_complete_unroll_warps8:
    case Kernel::global_complete_unroll_template:
      return {512, 8, 4, 0, "seed 000: block 512, grid/8"};
    // Harris used 128; 256 lets the shared tree fill an SM with 8 blocks. Not swept over block
    // sizes; with it the H200 ladder at 2^28 f32 runs from 416 GB/s (#1) to 3607 GB/s (#7).
    case Kernel::smem_interleaved_divergent:
    case Kernel::smem_interleaved_strided:
    case Kernel::smem_sequential:
      return {256, 1, 4, 0, "not swept; H200 2^28 f32 #1 416 GB/s .. #3 870 GB/s"};
    case Kernel::smem_first_add:
    case Kernel::smem_unroll_last_warp:
    case Kernel::smem_complete_unroll:
      return {256, 2, 4, 0, "not swept; H200 2^28 f32 #4 1616 GB/s .. #6 2281 GB/s"};
    case Kernel::smem_multi_element:
      return {256, 2, 4, wave_256, "one resident wave; not swept; H200 2^28 f32 3607 GB/s"};
    // Seed 002: 512 threads, at most 1024 blocks, then <<<1, 1024>>> over the partials.
    case Kernel::warp_shuffle_down:
    case Kernel::warp_shuffle_xor:
    case Kernel::warp_redux:
      return {512, 1, 4, 0, "seed 002: 512 threads, grid <= 1024, then 1 x 1024"};
    // 256 threads x 4 loads of 16 bytes in flight, one resident wave (8 blocks/SM). Measured by
    // xreduce_cuda_tune on an H200 (132 SMs), 2^28 f32 sum, cold L2, median of 20: 4331 GB/s,
    // 0.994x cub::DeviceReduce (4357 GB/s). Every block size 128..512 x unroll 2..8 x 1..4
    // waves landed within 0.987x..0.998x of CUB (noise ~0.5%), so the shape with the fewest
    // partials for fast/single-pass's last block to fold was kept.
    case Kernel::fast_vectorized:
    case Kernel::fast_single_pass:
      return {256, 16, 16, wave_256, "H200 2^28 f32: 4331 GB/s, 0.994x CUB (xreduce_cuda_tune)"};
    case Kernel::lib_cub:
      return {0, 0, 0, 0, "CUB's own tuning policies"};
  }
  return {};
}

Plan make_plan(Kernel k, DType t, Op op, std::size_t n, const DeviceLimits& dev) {
  Plan plan;
  plan.kernel = k;
  plan.dtype = t;
  plan.op = op;
  plan.n = n;
  switch (family_of(k)) {
    case Family::global:
      detail::plan_global(plan, dev);
      break;
    case Family::smem:
      detail::plan_smem(plan, dev);
      break;
    case Family::warp:
      detail::plan_warp(plan, dev);
      break;
    case Family::fast:
      detail::plan_fast(plan, dev);
      break;
    case Family::cub:
      detail::plan_cub(plan, dev);
      break;
  }
  return plan;
}

void enqueue(const Plan& plan, const Buffers& bufs, cudaStream_t stream) {
  switch (family_of(plan.kernel)) {
    case Family::global:
      return detail::enqueue_global(plan, bufs, stream);
    case Family::smem:
      return detail::enqueue_smem(plan, bufs, stream);
    case Family::warp:
      return detail::enqueue_warp(plan, bufs, stream);
    case Family::fast:
      return detail::enqueue_fast(plan, bufs, stream);
    case Family::cub:
      return detail::enqueue_cub(plan, bufs, stream);
  }
}

std::string Plan::describe() const {
  if (passes.empty()) return "library call";
  std::string s = std::to_string(passes.size()) + (passes.size() == 1 ? " pass: " : " passes: ");
  for (std::size_t i = 0; i < passes.size(); ++i) {
    if (i) s += " -> ";
    s += std::to_string(passes[i].grid) + "x" + std::to_string(passes[i].block);
  }
  return s;
}

}  // namespace xr::cuda
