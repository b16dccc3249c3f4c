// The passes of one sort call as the APIs that launch core's plans run them (Vulkan, OpenCL):
// each pass's stage, kernel, tile, the operands at its five bindings and its arguments, and the
// layout of the call's scratch. Built from the family plans of sort_plan.hpp (digit passes,
// portions, chunks, the bitonic network); CUDA's dispatch follows the same plans with its own
// kernels.
//
// Scratch: the alternate keys and values (where a pass writes them), then 32-bit words:
//   [histograms: passes x 256 counts][tile counters: one per launch][status set 0: rows x 256]
//   [status set 1: rows x 256][bins: passes x 2 x 256 counts][fallback count: 2 words]
//   [grid: 4 words]
// (onesweep); [table: 256 x blocks counts] (reduce-then-scan); a count is one word, or two in the
// wide form (sort::ScheduleOptions::wide), and offsets count words. The init pass zeroes the words
// up to the second status set, or as many of them as the call's keys reach; every other word is
// written before it is read. bitonic: the items first (n padded to a power of two, at least one
// tile; 8 bytes each for keys up to 32 bits, 16 for 64-bit keys), bound at binding 4 by every pass
// and written by the tile pass before any other reads them; its words go unused.
//
// One layout serves every call up to the capacity it is planned for (sort::CallSize): a call of
// fewer keys launches over the same offsets, its rows, tiles and blocks a prefix of the
// capacity's. A call whose count is read on the device (counted) launches the capacity's grids,
// and each pass takes its keys, tiles and blocks from that count (sort_n in the kernels).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "xreduce/primitive.hpp"
#include "xreduce/types.hpp"

namespace xr {

namespace sort {
enum class Family : std::uint8_t { reduce_then_scan, onesweep, bitonic };

// A sort id in the table of an API that runs these passes: its family, what it needs of the
// device (the API's requirement bits), the smallest workgroup its passes take and the least shared
// memory its tiles take (the API's plan shrinks them to the device). LibraryVariants reads these.
struct Row {
  std::string_view name;
  Family family = Family::onesweep;
  std::uint32_t needs = 0;
  std::uint32_t threads = 256;
  std::uint32_t group_bytes = 0;
  std::string_view id() const { return name; }
};

// The operands a pass binds: the caller's four arrays, the alternates in scratch, the words and
// the bitonic items (in scratch, at binding 4 where the radix passes bind the words).
enum class Operand : std::uint8_t {
  keys_in,
  keys_out,
  values_in,
  values_out,
  alternate_keys,
  alternate_values,
  words,
  items
};
inline constexpr std::size_t kOperands = 8;
inline constexpr std::size_t kBindings = 5;  // keys read, keys written, values ditto, words
using Bindings = std::array<Operand, kBindings>;

// A pass's arguments, in this order as the shaders' push constants (shaders/sort_common.glsl)
// and the kernels' arguments (kernels/sort_common.cl): the fields of xreduce/kernel/sort_args.h,
// which all three include.
struct Args {
#define XR_SORT_ARG(name, initial) std::uint32_t name = initial;
#include "xreduce/kernel/sort_args.h"
#undef XR_SORT_ARG
};

// The stages of xreduce/sort_stages.h, in its order.
enum class Stage : std::uint8_t {
#define XR_SORT_STAGE(stage, ...) stage,
#include "xreduce/sort_stages.h"
#undef XR_SORT_STAGE
};
inline constexpr std::size_t kStages = 0
#define XR_SORT_STAGE(stage, ...) +1
#include "xreduce/sort_stages.h"
#undef XR_SORT_STAGE
    ;

// The forms a stage's kernel is built in (xreduce/sort_stages.h says what each means).
struct StageForms {
  std::string_view kernel;  // sort_<stage>
  bool keys = false;        // one build per key width
  bool pairs = false;       // also ones moving values (u32: .pairs, u64: .pairs64)
  bool ranks = false;       // ranks a tile's digits: also by counting
  bool address = false;     // also in core's wide form
  bool items = false;       // on bitonic/smem's items
  bool tile = false;        // sorts tiles of items in shared memory
  bool ordered = false;     // reads keys by their order: OpenCL builds one a kind and order
};
}  // namespace sort
const sort::StageForms& sort_stage_forms(sort::Stage s);
// The stage whose kernel is `kernel` ("sort_onesweep"); nullptr for any other name.
const sort::StageForms* sort_stage_forms(std::string_view kernel);

namespace sort {
struct Pass {
  Stage stage = Stage::init;
  std::string_view kernel;  // shaders/<kernel>.comp, opencl_backend/kernels/<kernel>.cl
  // The values the pass reads and writes: none, or its pairs module of their width.
  SortValues values = SortValues::none;
  std::uint32_t threads = 256;
  std::uint32_t items = 1;
  std::uint64_t groups = 1;
  Bindings bindings{Operand::keys_in, Operand::keys_out, Operand::values_in, Operand::values_out,
                    Operand::words};
  Args args;
  // Its grid is the words' at args.grid, written by the grid pass (ScheduleOptions::device_grids):
  // `groups` is the most it takes.
  bool indirect = false;
};

// A tile: threads x items keys.
struct Tile {
  std::uint32_t threads = 256;
  std::uint32_t items = 16;
  std::uint64_t keys() const { return std::uint64_t{threads} * items; }
};

// What the API decides: its tiles for this key and device, the reduce-then-scan's blocks (about
// one resident wave), the histogram's workgroups and the look-back's patience.
struct ScheduleOptions {
  Tile tile;                              // a digit pass's tile (threads >= 256)
  Tile histogram{256, 4};                 // the histogram's workgroup and keys in flight
  std::uint64_t histogram_groups = 1024;  // at most
  std::uint64_t wave = 256;               // reduce-then-scan: blocks at most
  std::uint32_t scan_threads = 1024;      // reduce-then-scan: the table scan's workgroup
  std::uint32_t polls = 64;               // onesweep: polls before the fallback (0: at once)
  // bitonic: the shared-memory tile, powers of two (below one tile the plan halves its items
  // while half of it holds n).
  Tile bitonic{512, 8};
  // The radix sorts' wide form: 64-bit indices, and every count that may pass 2^32 (the
  // histograms, the bins, reduce-then-scan's table) in two words, low then high.
  bool wide = false;
  // With the count on the device, a grid pass writes the onesweep digit passes' grid for an
  // indirect dispatch (Vulkan); without, they launch the capacity's tiles and the ones past the
  // count return at once (OpenCL).
  bool device_grids = false;
  // The tile and the tuning entry (or knob) it came from, for `xreduce inspect`.
  std::string tuning;
};

// The keys of one call against the capacity its scratch is laid out for.
struct CallSize {
  std::uint64_t n = 0;         // the keys sorted, or with `counted` the most the count takes
  std::uint64_t capacity = 0;  // the layout's keys: n <= capacity
  bool counted = false;        // the keys are a 32-bit count on the device (n == capacity)
};

struct Schedule {
  std::vector<Pass> passes;
  std::uint64_t alternate_keys_at = 0;  // bytes into scratch
  std::uint64_t alternate_values_at = 0;
  std::uint64_t words_at = 0;
  std::uint64_t scratch_bytes = 0;
  std::optional<std::uint64_t> fallbacks_at;  // onesweep: bytes into scratch of the count
  // onesweep: bytes into scratch of the digit passes' grid, the words' last (the grid pass's
  // alone: every other pass may reach the words before it)
  std::optional<std::uint64_t> grid_at;
  std::uint64_t tiles = 0;        // onesweep: tiles of one call (all passes)
  std::uint64_t items_at = 0;     // bitonic: bytes into scratch of the items
  std::uint64_t items_bytes = 0;  // bitonic: 0 for the radix sorts
  std::uint64_t capacity = 0;     // the keys the layout is for (CallSize)
  std::string tuning;             // ScheduleOptions::tuning
};
}  // namespace sort

// bitonic: an item's bytes, (rank, input position) for keys up to 32 bits, a 64-bit rank's two
// words, the position and a word of padding for 64-bit keys.
inline std::uint64_t bitonic_item_bytes(DType t) {
  return size_of(t) == 8 ? 16 : 8;
}

// The largest n of the narrow form (sort::ScheduleOptions::wide false): unsigned 32-bit indices and
// counts, with a tile's reach past the last key (a tile holds fewer than 2^16 keys) still below
// 2^32. The wide form's 64-bit indices and counts take the radix sorts to 2^40 keys (a tile's
// index stays 32-bit). bitonic/smem pads n to a power of two, which its 32-bit indices must hold:
// at most 2^31 keys, narrow only.
inline constexpr std::uint64_t kSortNarrowMaxKeys =
    (std::uint64_t{1} << 32) - (std::uint64_t{1} << 16);
inline constexpr std::uint64_t kSortWideMaxKeys = std::uint64_t{1} << 40;
inline constexpr std::uint64_t kBitonicPlanMaxKeys = std::uint64_t{1} << 31;
inline constexpr std::uint64_t sort_plan_max_keys(sort::Family family) {
  return family == sort::Family::bitonic ? kBitonicPlanMaxKeys : kSortWideMaxKeys;
}
// Whether a radix sort of n keys needs the wide form.
inline constexpr bool sort_needs_wide(std::uint64_t n) {
  return n > kSortNarrowMaxKeys;
}

// The key's kind and order as every pass reads them (its mode: shaders/sort_common.glsl,
// kernels/sort_common.cl): bits 0-1 the kind, unsigned (0), signed (1) or float (2); bit 2 a
// descending order. The key's width is the pass's module or build.
std::uint32_t sort_key_kind(DType t);
inline std::uint32_t sort_mode(DType t, SortOrder order) {
  return sort_key_kind(t) | (order == SortOrder::descending ? 4u : 0u);
}

// n in 1..sort_plan_max_keys(family), past kSortNarrowMaxKeys only with options.wide; `bits`
// effective (effective_bits). Error(usage) otherwise. A call of n keys laid out for n.
sort::Schedule plan_sort_call(sort::Family family, std::uint64_t n, DType t, SortValues values,
                              BitRange bits, const sort::ScheduleOptions& options);
// The same for `size` into `plan`, reusing its passes' storage: once it has held the capacity's
// plan, no allocation. n from 1 to the capacity (planned as above), the counted form in one
// onesweep launch a digit (sort_counted_max_keys); Error(usage) otherwise. plan.tuning is left
// as it is.
void plan_sort_call(sort::Schedule& plan, sort::Family family, const sort::CallSize& size, DType t,
                    SortValues values, BitRange bits, const sort::ScheduleOptions& options);
// The most keys a counted call of `family` takes with `options`: onesweep's one portion a digit
// pass (its tiles read from the count need no portions), the narrow form's keys otherwise (a
// 32-bit count).
std::uint64_t sort_counted_max_keys(sort::Family family, const sort::ScheduleOptions& options);
// The counted call over the capacity `plan` is laid out for, into `plan`. Error(unsupported),
// naming the variant `id`, past sort_counted_max_keys.
void plan_counted_call(sort::Schedule& plan, std::string_view id, sort::Family family, DType t,
                       SortValues values, BitRange bits, const sort::ScheduleOptions& options);

}  // namespace xr
