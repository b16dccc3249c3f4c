// The switch from a ScanKernel to its family's planner, launcher and policy.
#include "scan_dispatch.hpp"

#include <string>

namespace xr::cuda {
namespace {

enum class Family { tiled, bit, fast, cub };

Family family_of(ScanKernel k) {
  switch (k) {
    case ScanKernel::smem_hillis_steele:
    case ScanKernel::blelloch_bcao:
    case ScanKernel::warp_shuffle_up:
      return Family::tiled;
    case ScanKernel::bit_one_layer:
    case ScanKernel::bit_between_blocks:
    case ScanKernel::bit_smem:
    case ScanKernel::bit_unrolled:
    case ScanKernel::bit_cooperative:
      return Family::bit;
    case ScanKernel::fast_reduce_then_scan:
    case ScanKernel::fast_decoupled_lookback:
      return Family::fast;
    case ScanKernel::lib_cub:
      return Family::cub;
  }
  return Family::cub;
}

}  // namespace

Policy scan_policy(ScanKernel k, const DeviceLimits& dev) {
  switch (family_of(k)) {
    case Family::tiled:
      return detail::policy_scan_tiled(k, dev);
    case Family::bit:
      return detail::policy_scan_bit(k, dev);
    case Family::fast:
      return detail::policy_scan_fast(k, dev);
    case Family::cub:
      return {0, 0, 0, 0, "CUB's own tuning policies"};
  }
  return {};
}

ScanPlan make_scan_plan(ScanKernel k, DType t, Op op, std::size_t n, const DeviceLimits& dev,
                        std::uint64_t one_group_max) {
  ScanPlan plan;
  plan.kernel = k;
  plan.dtype = t;
  plan.op = op;
  plan.n = n;
  switch (family_of(k)) {
    case Family::tiled:
      detail::plan_scan_tiled(plan, dev);
      break;
    case Family::bit:
      detail::plan_scan_bit(plan, dev);
      break;
    case Family::fast:
      detail::plan_scan_fast(plan, dev, one_group_max);
      break;
    case Family::cub:
      detail::plan_scan_cub(plan, dev);
      break;
  }
  return plan;
}

void enqueue_scan(const ScanPlan& plan, const ScanBuffers& bufs, ScanKind kind,
                  cudaStream_t stream) {
  switch (family_of(plan.kernel)) {
    case Family::tiled:
      return detail::enqueue_scan_tiled(plan, bufs, kind, stream);
    case Family::bit:
      return detail::enqueue_scan_bit(plan, bufs, kind, stream);
    case Family::fast:
      return detail::enqueue_scan_fast(plan, bufs, kind, stream);
    case Family::cub:
      return detail::enqueue_scan_cub(plan, bufs, kind, stream);
  }
}

std::string ScanPlan::describe() const {
  std::string s = std::to_string(n) + " elements";
  if (grid) s += ", " + std::to_string(grid) + "x" + std::to_string(block);
  if (tile) s += ", tiles of " + std::to_string(tile);
  if (tiles) s += " (" + std::to_string(tiles) + ")";
  if (one_block) s += ", one block";
  s += ", scratch " + std::to_string(scratch_bytes) + " B";
  return s;
}

}  // namespace xr::cuda
