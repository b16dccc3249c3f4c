#include "reduce_table.hpp"

namespace xr::cuda {
namespace {

constexpr ReduceEntry kTable[] = {
    {.id = "global/neighbored", .kernel = ReduceKernel::global_neighbored, .in_place = true},
    {.id = "global/neighbored-less",
     .kernel = ReduceKernel::global_neighbored_less,
     .in_place = true},
    {.id = "global/interleaved", .kernel = ReduceKernel::global_interleaved, .in_place = true},
    {.id = "global/unroll2", .kernel = ReduceKernel::global_unroll2, .in_place = true},
    {.id = "global/unroll4", .kernel = ReduceKernel::global_unroll4, .in_place = true},
    {.id = "global/unroll8", .kernel = ReduceKernel::global_unroll8, .in_place = true},
    {.id = "global/unroll-warps8", .kernel = ReduceKernel::global_unroll_warps8, .in_place = true},
    {.id = "global/complete-unroll-warps8",
     .kernel = ReduceKernel::global_complete_unroll_warps8,
     .in_place = true},
    {.id = "global/complete-unroll-template",
     .kernel = ReduceKernel::global_complete_unroll_template,
     .in_place = true},
    {.id = "smem/interleaved-divergent", .kernel = ReduceKernel::smem_interleaved_divergent},
    {.id = "smem/interleaved-strided", .kernel = ReduceKernel::smem_interleaved_strided},
    {.id = "smem/sequential", .kernel = ReduceKernel::smem_sequential},
    {.id = "smem/first-add", .kernel = ReduceKernel::smem_first_add},
    {.id = "smem/unroll-last-warp", .kernel = ReduceKernel::smem_unroll_last_warp},
    {.id = "smem/complete-unroll", .kernel = ReduceKernel::smem_complete_unroll},
    {.id = "smem/multi-element", .kernel = ReduceKernel::smem_multi_element},
    {.id = "warp/shuffle-down", .kernel = ReduceKernel::warp_shuffle_down},
    {.id = "warp/shuffle-xor", .kernel = ReduceKernel::warp_shuffle_xor},
    {.id = "warp/redux",
     .kernel = ReduceKernel::warp_redux,
     .min_cc = 80,
     .requirement = "sm_80 (__reduce_*_sync)"},
    {.id = "fast/vectorized", .kernel = ReduceKernel::fast_vectorized},
    {.id = "fast/single-pass", .kernel = ReduceKernel::fast_single_pass},
    {.id = "lib/cub", .kernel = ReduceKernel::lib_cub},
};

}  // namespace

std::span<const ReduceEntry> reduce_table() {
  return kTable;
}

const ReduceEntry* find_reduce(std::string_view id) {
  for (const ReduceEntry& e : kTable)
    if (e.id == id) return &e;
  return nullptr;
}

std::string reduce_unsupported_reason(const ReduceEntry& e, const DeviceLimits& limits) {
  const int cc = limits.cc_major * 10 + limits.cc_minor;
  if (cc < e.min_cc)
    return "needs " + std::string(e.requirement) + "; this device is sm_" + std::to_string(cc);
  return {};
}

}  // namespace xr::cuda
