#include "cl_scan_table.hpp"

#include "cl_requirements.hpp"
#include "xreduce/catalog.hpp"

namespace xr::opencl {
namespace {

constexpr ScanSpec scan_spec(std::string_view id, std::uint32_t local_bytes,
                             std::uint32_t needs = 0) {
  return {.schedule = scan_schedule(id), .local_bytes = local_bytes, .needs = needs};
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

const ScanSpec* find_scan(std::string_view id) {
  return find_row<ScanSpec>(kScans, id);
}

VariantInfo scan_info(const ScanSpec& spec) {
  return table_variant(Primitive::scan, spec.id(), opencl_dtypes(), requirement_words(spec.needs),
                       spec.schedule.deterministic);
}

std::string scan_unsupported_reason(const ScanSpec& spec, const DeviceFacts& f) {
  return missing_reason(spec.needs, spec.schedule.threads, spec.local_bytes, f);
}

}  // namespace xr::opencl
