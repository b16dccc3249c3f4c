#include "cl_scan_table.hpp"

#include "cl_requirements.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/shapes.hpp"

namespace xr::opencl {
namespace {

constexpr TileShape shape(std::string_view id) {
  return shared_shape(Primitive::scan, id);
}

constexpr ScanSpec bit(std::string_view id, std::string_view build, std::string_view levels,
                       std::string_view query, std::uint32_t local_bytes) {
  return {.id = id,
          .family = ScanFamily::bit,
          .kernel = build,
          .levels = levels,
          .query = query,
          .workgroup = shape(id).threads,
          .local_bytes = local_bytes};
}

constexpr ScanSpec kScans[] = {
    {.id = "smem/hillis-steele",
     .kernel = "scan_hillis_steele",
     .workgroup = shape("smem/hillis-steele").threads,
     .items = shape("smem/hillis-steele").items,
     .local_bytes = 2 * 512 * 4},
    bit("bit/one-layer", "bit_build_block", "bit_build_level", "bit_query", 256 * 4),
    bit("bit/between-blocks", "bit_build_block", "bit_build_between", "bit_query", 256 * 4),
    bit("bit/smem", "bit_build_block", "bit_build_between", "bit_query_smem", 256 * 4),
    bit("bit/unrolled", "bit_build_block_unrolled", "bit_build_between", "bit_query_smem", 256 * 4),
    {.id = "blelloch/bcao",
     .kernel = "scan_blelloch_bcao",
     .workgroup = shape("blelloch/bcao").threads,
     .items = shape("blelloch/bcao").items,
     .local_bytes = (1024 + 32) * 4},
    {.id = "subgroup/shuffle-up",
     .kernel = "scan_subgroup_shuffle_up",
     .workgroup = kRegisterScanShape.threads,
     .items = kRegisterScanShape.items,
     .local_bytes = (2048 + 64 + 256) * 4,
     .needs = need_subgroup_shuffle},
    {.id = "fast/reduce-then-scan",
     .family = ScanFamily::reduce_then_scan,
     .kernel = "scan_rts_tiles",
     .workgroup = shape("fast/reduce-then-scan").threads,
     .items = shape("fast/reduce-then-scan").items / 4,
     .local_bytes = 2 * 1024 * 4},  // scan_rts_partials: 2 x 1024 slots
    // The look-back sums a tile's predecessors in an order that depends on which have published
    // their inclusive prefix yet: floats differ in the last bits run to run.
    {.id = "fast/decoupled-lookback",
     .family = ScanFamily::look_back,
     .kernel = "scan_lookback",
     .workgroup = 128,
     .items = 8,
     .local_bytes = 2 * 128 * 4 + 64,
     .needs = need_int64_atomics,
     .deterministic = false},
};

}  // namespace

std::span<const ScanSpec> scan_table() {
  return kScans;
}

const ScanSpec* find_scan(std::string_view id) {
  for (const auto& s : kScans)
    if (s.id == id) return &s;
  return nullptr;
}

VariantInfo scan_info(const ScanSpec& spec) {
  VariantInfo info =
      catalog_variant(Primitive::scan, spec.id, opencl_dtypes(), {Op::sum, Op::min, Op::max});
  info.deterministic = spec.deterministic;
  info.requirements = requirement_words(spec.needs);
  return info;
}

std::string scan_unsupported_reason(const ScanSpec& spec, const DeviceFacts& f) {
  return missing_reason(spec.needs, spec.workgroup, spec.local_bytes, f);
}

}  // namespace xr::opencl
