// What one device allows a sort call of the APIs that launch core's plans (Vulkan, OpenCL), as
// pure functions of plain numbers: the digit passes' tile and bitonic/smem's, the wide form, the
// refusals, and core's plan options from them. Each API reads its device into sort::Limits and says
// what its tile kernels take of shared memory (sort::TileBytes) and which tile its measurements
// chose (vk_sort_plan.cpp, cl_sort_plan.cpp); the fitting is the same for both.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>

#include "xreduce/sort_passes.hpp"
#include "xreduce/types.hpp"

namespace xr {

namespace sort {
// A device as a sort's tiles see it.
struct Limits {
  std::uint64_t shared_bytes = 0;  // shared (local) memory one workgroup may take
  std::uint32_t max_threads = 0;   // invocations one workgroup may have in its first dimension
  std::uint32_t subgroup = 1;      // the smallest subgroup the tile kernels run in (1: none)
  bool cpu = false;                // a CPU device: few threads run at once
  // The words of the refusals: the API's names of shared memory and of a workgroup, and the
  // device.
  std::string_view memory = "shared";
  std::string_view workgroups = "workgroups";
  std::string device = "this device";
};

// A digit pass's shared memory as its tile kernels lay it out: `fixed` bytes, `per_thread` an
// invocation, `per_subgroup` a subgroup and `per_key` a key of the tile.
struct TileBytes {
  std::uint64_t fixed = 0;
  std::uint64_t per_thread = 0;
  std::uint64_t per_subgroup = 0;
  std::uint64_t per_key = 0;
  // What grows with the invocations alone: the ranking's counters.
  std::uint64_t counters(std::uint32_t threads, std::uint32_t subgroup) const {
    return per_thread * threads + per_subgroup * (threads / std::max<std::uint32_t>(subgroup, 1));
  }
  std::uint64_t of(Tile tile, std::uint32_t subgroup) const {
    return fixed + counters(tile.threads, subgroup) + per_key * tile.keys();
  }
};
}  // namespace sort

// A row of an API's tuning table of digit tiles: the tile its measurements chose for one way of
// ranking a tile and one key width, with the evidence (the GPU, the shape, the times, the report
// the numbers are kept in).
struct DigitTileTuning {
  std::string_view ranking;     // as the API's diagnostics name it: "subgroup ballots", "counting"
  std::uint32_t key_bytes = 4;  // 4: keys up to 32 bits; 8: 64-bit keys
  sort::Tile tile;
  std::string_view evidence;
  // Pairs' own tile, where the measurements chose another (0 invocations: `tile` for pairs too).
  sort::Tile pairs_tile = {0, 0};
  std::string_view pairs_evidence = {};

  bool own_pairs_tile(bool pairs) const { return pairs && pairs_tile.threads != 0; }
  sort::Tile tile_for(bool pairs) const { return own_pairs_tile(pairs) ? pairs_tile : tile; }
  std::string_view evidence_for(bool pairs) const {
    return own_pairs_tile(pairs) ? pairs_evidence : evidence;
  }
};
// The row of `table` for `ranking` and keys of `t`, or null where the table lacks it.
const DigitTileTuning* digit_tuning_row(std::span<const DigitTileTuning> table,
                                        std::string_view ranking, DType t);
// The row of `table` for `ranking` and keys of `t`; Error(unsupported) where the table lacks it.
const DigitTileTuning& find_digit_tuning(std::span<const DigitTileTuning> table,
                                         std::string_view ranking, DType t);

// A digit pass's tile as an API asks for it.
struct DigitTileRequest {
  sort::Tile wanted;  // the API's tuning table's for this key and ranking, or a knob's tile
  std::string_view evidence = {};  // why `wanted`: the row's evidence, or the knob that set it
  sort::TileBytes bytes;
  // Where the wanted invocations' counters would take more than half the shared memory, this
  // many invocations instead (0: the wanted ones still): small subgroups need many counter rows.
  std::uint32_t crowded_threads = 0;
  // Whether the device's workgroup (and 1024) caps the invocations, refusing fewer than 256.
  bool capped = false;
};

namespace sort {
// A tile, or why none fits.
struct TileChoice {
  Tile tile;
  std::string why;  // empty where `tile` fits
  bool fits() const { return why.empty(); }
};
}  // namespace sort

// A digit pass's tile: the request's invocations, and as many of its wanted items as the shared
// memory holds beside what the invocations take; why not, where not one item fits (or, capped,
// the workgroup takes fewer than 256 invocations: the digit passes' 256 counters, one each).
sort::TileChoice fit_digit_tile(const sort::Limits& limits, const DigitTileRequest& request);

// bitonic/smem's tile for keys of `t`: 512 x 8 items of 8 bytes (512 x 4 of 16, 64-bit keys: 32
// KiB of items a workgroup, CUDA's tile), items then invocations halved until the workgroup and
// the shared memory take it; powers of two throughout, as the network needs. Always one: 1 x 1
// at the least.
sort::Tile fit_bitonic_tile(const sort::Limits& limits, DType t);

// Whether a sort call takes core's wide form (sort::ScheduleOptions::wide): never bitonic/smem; a
// radix sort past kSortNarrowMaxKeys keys, where `forced`, or where an array of its keys or values
// passes `binding_bytes` (the most one binding reaches: the narrow form binds every array). Values
// count as u32 at least: keys alone bind the words in their place.
bool sort_wide_form(sort::Family family, std::uint64_t n, DType t, bool forced,
                    std::uint64_t binding_bytes = std::numeric_limits<std::uint64_t>::max(),
                    SortValues values = SortValues::u32);

// Why `id` does not take n keys: past sort_plan_max_keys(family). Empty where it does.
std::string sort_count_refusal(std::string_view id, sort::Family family, std::uint64_t n);
// Why bitonic/smem's items (items_bytes for n keys of `t`) do not fit one storage-buffer binding
// of `binding_bytes`: every pass binds them whole. Empty where they do.
std::string sort_items_refusal(std::string_view id, std::uint64_t n, DType t,
                               std::uint64_t items_bytes, std::uint64_t binding_bytes);

// Core's options for a sort of `family` over keys of `t` on this device: the digit tile
// (fit_digit_tile of `digit`) or bitonic's (fit_bitonic_tile), the form, reduce-then-scan's
// blocks (a GPU's resident wave, or on a CPU device its few threads' worth, so that blocks count
// several tiles from 2^16 keys up), the table scan's workgroup (up to 1024) and the look-back's
// patience (0: the forced fallback), and `tuning`: the tile, what was asked and why, for
// `xreduce inspect`. Error(unsupported) where no digit tile fits.
sort::ScheduleOptions sort_plan_options(const sort::Limits& limits, sort::Family family, DType t,
                                        bool wide, std::uint32_t polls,
                                        const DigitTileRequest& digit);

}  // namespace xr
