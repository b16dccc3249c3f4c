// One plan per scan family: each scan id's schedule (its family, tile and kernels) and the passes
// one call over n elements runs — each pass's stage, kernel, block, buffers, arguments and whether
// it writes the caller's output (and so takes the scan kind). The GPU backends that launch core's
// plans (Vulkan, OpenCL) translate each pass into their own arguments and grids and apply their
// device limits; CUDA's dispatch follows the same tiled layout (tiled_scan_layout in shapes.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "xreduce/pass_args.hpp"
#include "xreduce/primitive.hpp"
#include "xreduce/shapes.hpp"
#include "xreduce/types.hpp"

namespace xr {

enum class ScanFamily {
  tiled,             // a block scans a tile and writes its total; the totals are scanned by the
                     // same kernel level by level, then added back down (scan_uniform_add)
  bit,               // the Fenwick-tree (BIT) scan: build in-block, build above, query
  reduce_then_scan,  // fast/reduce-then-scan: reduce chunks, scan the partials, rescan chunks
  look_back,         // fast/decoupled-lookback: one pass with the decoupled fallback
};

// How a BIT builds the levels above the block: one launch per level (the BIT scan's first scheme),
// or one block for every level (its second).
enum class BitLevels { per_level, one_block };

struct ScanSchedule {
  std::string_view id;  // catalog id
  ScanFamily family = ScanFamily::tiled;
  std::uint32_t threads = 256;  // per block, a power of two
  // tiled: elements per thread; fast/*: 4-element vectors per thread (16 bytes of 32-bit types)
  std::uint32_t items = 1;
  // The kernels, by algorithm name (shaders/<name>.comp, opencl_backend/kernels/<name>.cl).
  std::string_view kernel;    // tiled: the tile scan; bit: the in-block build; fast/*: the pass
  std::string_view levels{};  // bit: the build above the block
  std::string_view query{};   // bit: the query
  BitLevels bit_levels = BitLevels::one_block;
  bool deterministic = true;  // float results bitwise the same run to run
};

namespace detail {

constexpr TileShape shared_scan_shape(std::string_view id) {
  return shared_shape(Primitive::scan, id);
}

constexpr ScanSchedule tiled_scan(std::string_view id, TileShape s, std::string_view kernel) {
  return {.id = id, .threads = s.threads, .items = s.items, .kernel = kernel};
}

constexpr ScanSchedule bit_scan(std::string_view id, std::string_view build,
                                std::string_view levels, std::string_view query, BitLevels how) {
  return {.id = id,
          .family = ScanFamily::bit,
          .threads = shared_scan_shape(id).threads,
          .kernel = build,
          .levels = levels,
          .query = query,
          .bit_levels = how};
}

}  // namespace detail

// Every scan id a plan of core serves, in catalog order: core's shared shapes for the ids CUDA
// shares, the register scans' (kRegisterScanShape) for the subgroup family; the look-back's tile
// is its 32-bit one, which a backend's policy may change (ScanPlanOptions::look_back). The
// look-back sums a tile's predecessors in an order that depends on which of them have published
// their inclusive prefix yet: floats differ in the last bits run to run.
inline constexpr ScanSchedule kScanSchedules[] = {
    detail::tiled_scan("smem/hillis-steele", detail::shared_scan_shape("smem/hillis-steele"),
                       "scan_hillis_steele"),
    detail::bit_scan("bit/one-layer", "bit_build_block", "bit_build_level", "bit_query",
                     BitLevels::per_level),
    detail::bit_scan("bit/between-blocks", "bit_build_block", "bit_build_between", "bit_query",
                     BitLevels::one_block),
    detail::bit_scan("bit/smem", "bit_build_block", "bit_build_between", "bit_query_smem",
                     BitLevels::one_block),
    detail::bit_scan("bit/unrolled", "bit_build_block_unrolled", "bit_build_between",
                     "bit_query_smem", BitLevels::one_block),
    detail::tiled_scan("blelloch/bcao", detail::shared_scan_shape("blelloch/bcao"),
                       "scan_blelloch_bcao"),
    detail::tiled_scan("subgroup/shuffle-up", kRegisterScanShape, "scan_subgroup_shuffle_up"),
    detail::tiled_scan("subgroup/arithmetic", kRegisterScanShape, "scan_subgroup_arithmetic"),
    {.id = "fast/reduce-then-scan",
     .family = ScanFamily::reduce_then_scan,
     .threads = detail::shared_scan_shape("fast/reduce-then-scan").threads,
     .items = detail::shared_scan_shape("fast/reduce-then-scan").items / 4,
     .kernel = "scan_rts_tiles"},
    {.id = "fast/decoupled-lookback",
     .family = ScanFamily::look_back,
     .threads = detail::shared_scan_shape("fast/decoupled-lookback").threads,
     .items = detail::shared_scan_shape("fast/decoupled-lookback").items / 4,
     .kernel = "scan_lookback",
     .deterministic = false},
};

// The schedule of `id`; an empty one (id "") for an id no plan of core serves. constexpr: each
// backend's table of kernels takes its ids' schedules at compile time.
constexpr ScanSchedule scan_schedule(std::string_view id) {
  for (const ScanSchedule& s : kScanSchedules)
    if (s.id == id) return s;
  return {};
}

// What a pass is in its family's schedule: the translator picks its kernel (a wide tile is the
// tile scan writing float results, a module of its own in Vulkan, a -D in OpenCL) and its
// launch (the look-back's pauses and polls in Vulkan).
enum class ScanStage : std::uint8_t {
  tile,          // tiled: a level's tile scan
  wide_tile,     // tiled, 16-bit types: the first level into float accumulators in scratch
  uniform_add,   // tiled: a level's tiles get their prefixes
  bit_build,     // bit: the tree in-block
  bit_levels,    // bit: the tree above the block
  bit_query,     // bit: the prefixes from the tree
  rts_reduce,    // reduce-then-scan: each chunk reduced to a partial
  rts_partials,  // reduce-then-scan: the partials scanned in one block
  rts_tiles,     // reduce-then-scan: each chunk scanned from its prefix (or one block, all of n)
  look_back,     // the single pass
};

struct ScanPassPlan {
  ScanStage stage = ScanStage::tile;
  std::string_view kernel;    // the algorithm name (a wide tile's: the tile scan's)
  std::uint32_t threads = 0;  // per block
  std::uint32_t items = 1;    // the kernel's items per thread (Vulkan's specialization constant 1,
                              // OpenCL's -DUNROLL)
  PassBuffers buffers = kIoBuffers;
  PassArgs args;
  bool takes_kind = false;  // writes the caller's output: exclusive when the call is

  // A pass over scratch alone reads accumulators; one into the output writes elements.
  bool reads_accumulators() const { return buffers[0] == BufferRole::scratch; }
  bool writes_elements() const { return buffers[1] == BufferRole::output; }
};

struct ScanPlan {
  std::vector<ScanPassPlan> passes;
  std::uint64_t scratch_bytes = 16;
  bool zero_scratch = false;                  // the look-back: its status words start at zero
  std::optional<std::uint64_t> fallbacks_at;  // the look-back: bytes into scratch of the count
  std::uint32_t tiles = 0;                    // the look-back: tiles of one call
};

// The look-back's tile: threads x 4-element vectors per thread.
struct LookBackShape {
  std::uint32_t workgroup = 0;
  std::uint32_t vectors = 0;
};

// What a backend decides for one call: its look-back tile and patience for this dtype, the
// one-group limit (core's kScanOneGroupMax, or its knob), and its device's largest block.
struct ScanPlanOptions {
  LookBackShape look_back{128, 8};
  std::uint32_t polls = 512;  // polls of an incomplete window before the block falls back
  std::uint64_t one_group_max = 0;
  std::uint32_t max_threads = 1024;
};

// Elements a lane takes per vector of the fast/* scan tiles: 4, or 8 of the 16-bit types (one
// 16-byte vector, as CUDA's lanes take).
std::uint32_t lane_elements(DType t);

// n >= 1. Scratch holds accumulators (accumulator_of: float for f16/bf16).
ScanPlan plan_scan(const ScanSchedule& schedule, std::uint64_t n, DType t,
                   const ScanPlanOptions& options);

}  // namespace xr
