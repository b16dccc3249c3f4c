#include "scan_table.hpp"

namespace xr::cuda {
namespace {

constexpr ScanEntry kTable[] = {
    {.id = "smem/hillis-steele", .kernel = ScanKernel::smem_hillis_steele},
    {.id = "bit/one-layer", .kernel = ScanKernel::bit_one_layer},
    {.id = "bit/between-blocks", .kernel = ScanKernel::bit_between_blocks},
    {.id = "bit/smem", .kernel = ScanKernel::bit_smem},
    {.id = "bit/unrolled", .kernel = ScanKernel::bit_unrolled},
    {.id = "bit/cooperative",
     .kernel = ScanKernel::bit_cooperative,
     .needs_cooperative_launch = true},
    {.id = "blelloch/bcao", .kernel = ScanKernel::blelloch_bcao},
    {.id = "warp/shuffle-up", .kernel = ScanKernel::warp_shuffle_up},
    {.id = "fast/reduce-then-scan", .kernel = ScanKernel::fast_reduce_then_scan},
    {.id = "fast/decoupled-lookback",
     .kernel = ScanKernel::fast_decoupled_lookback,
     .deterministic = false},
    {.id = "lib/cub", .kernel = ScanKernel::lib_cub, .deterministic = false},
};

}  // namespace

std::span<const ScanEntry> scan_table() {
  return kTable;
}

const ScanEntry* find_scan(std::string_view id) {
  for (const ScanEntry& e : kTable)
    if (e.id == id) return &e;
  return nullptr;
}

std::string scan_unsupported_reason(const ScanEntry& e, const DeviceLimits& limits) {
  if (e.needs_cooperative_launch && !limits.cooperative_launch)
    return "needs cooperative launch, which this device does not support";
  return {};
}

}  // namespace xr::cuda
