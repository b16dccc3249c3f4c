#include "cl_scan_table.hpp"

#include "cl_requirements.hpp"
#include "xreduce/catalog.hpp"

namespace xr::opencl {
namespace {

constexpr ScanSpec scan_spec(std::string_view id, std::uint32_t group_bytes,
                             std::uint32_t needs = 0) {
  return {.schedule = scan_schedule(id), .group_bytes = group_bytes, .needs = needs};
}

constexpr ScanSpec kScans[] = {
    scan_spec("smem/hillis-steele", 2 * 512 * 4),
    scan_spec("bit/one-layer", 256 * 4),
    scan_spec("bit/between-blocks", 256 * 4),
    scan_spec("bit/smem", 256 * 4),
    scan_spec("bit/unrolled", 256 * 4),
    scan_spec("blelloch/bcao", (1024 + 32) * 4),
    scan_spec("subgroup/shuffle-up", (2048 + 64 + 256) * 4, need_subgroup_shuffle),
    scan_spec("fast/reduce-then-scan", 2 * 1024 * 4),  // scan_rts_partials: 2 x 1024 slots
    scan_spec("fast/decoupled-lookback", 2 * 128 * 4 + 64, need_int64_atomics),
};

}  // namespace

std::span<const ScanSpec> scan_table() {
  return kScans;
}

}  // namespace xr::opencl
