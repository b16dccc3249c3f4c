#include "xreduce/sort_passes.hpp"

#include <algorithm>
#include <bit>
#include <initializer_list>
#include <span>

#include "xreduce/error.hpp"
#include "xreduce/sort_plan.hpp"

namespace xr {
namespace {

// A row of xreduce/sort_stages.h.
enum class StageForm { keys, pairs, ranks, address, items, tile, ordered };
constexpr sort::StageForms stage_row(std::string_view kernel,
                                     std::initializer_list<StageForm> forms) {
  sort::StageForms r{.kernel = kernel};
  for (StageForm f : forms) {
    r.keys |= f == StageForm::keys;
    r.pairs |= f == StageForm::pairs;
    r.ranks |= f == StageForm::ranks;
    r.address |= f == StageForm::address;
    r.items |= f == StageForm::items;
    r.tile |= f == StageForm::tile;
    r.ordered |= f == StageForm::ordered;
  }
  return r;
}

// Every stage's forms, by sort::Stage.
std::span<const sort::StageForms> stage_table() {
  using enum StageForm;
  static constexpr sort::StageForms table[] = {
#define XR_SORT_STAGE(stage, ...) stage_row("sort_" #stage, {__VA_ARGS__}),
#include "xreduce/sort_stages.h"
#undef XR_SORT_STAGE
  };
  return table;
}

std::string_view kernel_of(sort::Stage s) {
  return sort_stage_forms(s).kernel;
}

constexpr std::uint32_t kRadix = 256;
// A status word's count has 30 bits (shaders/sort_onesweep.comp).
constexpr std::size_t kMaxPortionKeys = (std::size_t{1} << 30) - 1;
// A bitonic global step's and the gather's workgroup, one pair or key an invocation: CUDA's
// block for the same kernels, not measured.
constexpr std::uint32_t kBitonicStepThreads = 256;

std::uint64_t align256(std::uint64_t bytes) {
  return (bytes + 255) / 256 * 256;
}

std::uint32_t u32(std::uint64_t x) {
  return static_cast<std::uint32_t>(x);
}

// The words of scratch one count takes: two in the wide form, low then high.
std::uint32_t count_words(const sort::ScheduleOptions& o) {
  return o.wide ? 2 : 1;
}

// A pass's n: the low 32 bits, and the high ones for the wide form.
sort::Args args_of(std::uint64_t n) {
  sort::Args a;
  a.n = u32(n);
  a.n_high = u32(n >> 32);
  return a;
}

// Where a digit pass's keys (or values) come from and go.
sort::Operand keys_of(sort::Buffer b) {
  return b == sort::Buffer::input    ? sort::Operand::keys_in
         : b == sort::Buffer::output ? sort::Operand::keys_out
                                     : sort::Operand::alternate_keys;
}
sort::Operand values_of(sort::Buffer b) {
  return b == sort::Buffer::input    ? sort::Operand::values_in
         : b == sort::Buffer::output ? sort::Operand::values_out
                                     : sort::Operand::alternate_values;
}
sort::Bindings pass_bindings(const DigitPass& d, SortValues values) {
  if (values == SortValues::none)  // the values' bindings unused: any operand
    return {keys_of(d.reads), keys_of(d.writes), sort::Operand::words, sort::Operand::words,
            sort::Operand::words};
  return {keys_of(d.reads), keys_of(d.writes), values_of(d.reads), values_of(d.writes),
          sort::Operand::words};
}
// A pass that reads keys only (the histogram, the counts): its input at binding 0.
sort::Bindings keys_only(sort::Operand keys) {
  return {keys, sort::Operand::words, sort::Operand::words, sort::Operand::words,
          sort::Operand::words};
}
constexpr sort::Bindings kWordsOnly{sort::Operand::words, sort::Operand::words,
                                    sort::Operand::words, sort::Operand::words,
                                    sort::Operand::words};

// The alternates, then the words: the layout's bytes, for `capacity` keys.
void lay_out(sort::Schedule& plan, std::uint64_t capacity, DType t, SortValues values,
             bool alternate, std::uint64_t words) {
  const std::uint64_t key_bytes = alternate ? capacity * size_of(t) : 0;
  const std::uint64_t alternate_values = alternate ? capacity * value_bytes(values) : 0;
  plan.alternate_keys_at = 0;
  plan.alternate_values_at = align256(key_bytes);
  plan.words_at = plan.alternate_values_at + align256(alternate_values);
  plan.scratch_bytes = plan.words_at + std::max<std::uint64_t>(words, 1) * 4;
  plan.items_at = plan.items_bytes = 0;
  plan.fallbacks_at.reset();
  plan.grid_at.reset();
  plan.tiles = 0;
}

// Every pass of a counted call reads its keys from the count.
sort::Args call_args(const sort::CallSize& size) {
  sort::Args a = args_of(size.n);
  a.counted = size.counted ? 1 : 0;
  return a;
}

// onesweep's words (see the header), laid out for the capacity's portions.
struct OnesweepWords {
  std::uint32_t histograms = 0, counters = 0, status0 = 0, status1 = 0, bins = 0, fallbacks = 0,
                grid = 0, end = 0;
};
OnesweepWords onesweep_words(std::uint32_t passes, const sort::Portions& capacity,
                             std::uint32_t count) {
  const auto launches = u32(passes * capacity.count());
  const auto rows = u32(capacity.at(0).tiles);  // the largest portion's tiles
  OnesweepWords w;
  w.counters = w.histograms + passes * kRadix * count;
  w.status0 = w.counters + (launches + 63) / 64 * 64;
  w.status1 = w.status0 + rows * kRadix;
  w.bins = w.status1 + rows * kRadix;
  w.fallbacks = w.bins + passes * 2 * kRadix * count;
  w.grid = w.fallbacks + 2;
  w.end = w.grid + 4;
  return w;
}

void plan_onesweep(sort::Schedule& plan, const sort::CallSize& size, DType t, SortValues values,
                   BitRange bits, const sort::ScheduleOptions& o) {
  const std::uint64_t n = size.n;
  const unsigned passes = radix_digit_count(bits);
  const sort::Portions capacity =
      onesweep_portion_split(size.capacity, o.tile.keys(), kMaxPortionKeys);
  const sort::Portions portions = onesweep_portion_split(n, o.tile.keys(), kMaxPortionKeys);
  const std::uint32_t count = count_words(o);
  const OnesweepWords w = onesweep_words(passes, capacity, count);
  // This call's largest portion: the status rows a launch zeroes for the next.
  const auto rows = u32(portions.at(0).tiles);
  lay_out(plan, size.capacity, t, values, passes > 1, w.end);
  plan.fallbacks_at = plan.words_at + std::uint64_t{w.fallbacks} * 4;
  plan.grid_at = plan.words_at + std::uint64_t{w.grid} * 4;
  plan.tiles = std::uint64_t{passes} * portions.tiles;

  sort::Args base = call_args(size);
  base.begin = bits.begin;
  base.end = bits.end;
  base.histograms = w.histograms;
  base.bins = w.bins;
  // A counted call zeroes the capacity's first status set; its launches the rows of its count.
  const std::uint32_t zeroed = size.counted ? w.status1 : w.status0 + rows * kRadix;
  sort::Pass init{.stage = sort::Stage::init,
                  .kernel = kernel_of(sort::Stage::init),
                  .threads = 256,
                  .groups = std::min<std::uint64_t>((zeroed + 1023) / 1024, 256),
                  .bindings = kWordsOnly,
                  .args = base};
  init.args.blocks = zeroed;
  plan.passes.push_back(init);
  const bool indirect = size.counted && o.device_grids;
  if (indirect) {
    sort::Pass grid{.stage = sort::Stage::grid,
                    .kernel = kernel_of(sort::Stage::grid),
                    .threads = 64,
                    .groups = 1,
                    .bindings = kWordsOnly,
                    .args = base};
    grid.args.tiles = u32(o.tile.keys());  // keys a tile of the passes it sizes
    grid.args.grid = w.grid;
    plan.passes.push_back(grid);
  }
  sort::Pass histogram{
      .stage = sort::Stage::histogram,
      .kernel = kernel_of(sort::Stage::histogram),
      .threads = o.histogram.threads,
      .items = o.histogram.items,
      .groups = std::clamp<std::uint64_t>(n / (o.histogram.keys() * 8), 1, o.histogram_groups),
      .bindings = keys_only(sort::Operand::keys_in),
      .args = base};
  plan.passes.push_back(histogram);
  plan.passes.push_back({.stage = sort::Stage::bins,
                         .kernel = kernel_of(sort::Stage::bins),
                         .threads = kRadix,
                         .groups = passes,
                         .bindings = kWordsOnly,
                         .args = base});
  std::uint32_t launch = 0;
  for (unsigned p = 0; p < passes; ++p) {
    const DigitPass digit = radix_digit_pass(bits, p);
    for (std::size_t i = 0; i < portions.count(); ++i) {
      const sort::Portion portion = portions.at(i);
      sort::Args a = base;
      a.shift = digit.shift;
      a.width = digit.width;
      a.first_tile = u32(portion.first_tile);
      a.tiles = u32(portion.tiles);
      a.bins_in = w.bins + (p * 2 + portion.bins_in) * kRadix * count;
      a.bins_out = w.bins + (p * 2 + portion.bins_out) * kRadix * count;
      a.status = launch % 2 == 0 ? w.status0 : w.status1;
      a.next_status = launch % 2 == 0 ? w.status1 : w.status0;
      a.zero_rows = rows;
      a.counter = w.counters + launch;
      a.limit = o.polls;
      a.fallbacks = w.fallbacks;
      plan.passes.push_back({.stage = sort::Stage::onesweep,
                             .kernel = kernel_of(sort::Stage::onesweep),
                             .values = values,
                             .threads = o.tile.threads,
                             .items = o.tile.items,
                             .groups = portion.tiles,
                             .bindings = pass_bindings(digit, values),
                             .args = a,
                             .indirect = indirect});
      ++launch;
    }
  }
}

void plan_reduce_then_scan(sort::Schedule& plan, const sort::CallSize& size, DType t,
                           SortValues values, BitRange bits, const sort::ScheduleOptions& o) {
  const unsigned passes = radix_digit_count(bits);
  const std::size_t rows =
      radix_chunks_most_blocks(size.capacity, o.tile.keys(), o.wave, kMaxPortionKeys);
  // A counted call's blocks are the capacity's, each its share of the count's tiles.
  const RadixChunks chunks = radix_chunks(size.n, o.tile.keys(), o.wave, kMaxPortionKeys);
  lay_out(plan, size.capacity, t, values, passes > 1, kRadix * rows * count_words(o));
  for (unsigned p = 0; p < passes; ++p) {
    const DigitPass d = radix_digit_pass(bits, p);
    sort::Args a = call_args(size);
    a.shift = d.shift;
    a.width = d.width;
    a.tiles = u32(chunks.tiles_per_block);
    a.blocks = u32(chunks.blocks);
    a.bins_in = 0;
    a.begin = bits.begin;
    a.end = bits.end;
    plan.passes.push_back({.stage = sort::Stage::rts_count,
                           .kernel = kernel_of(sort::Stage::rts_count),
                           .threads = o.tile.threads,
                           .items = o.tile.items,
                           .groups = chunks.blocks,
                           .bindings = keys_only(keys_of(d.reads)),
                           .args = a});
    plan.passes.push_back({.stage = sort::Stage::rts_scan,
                           .kernel = kernel_of(sort::Stage::rts_scan),
                           .threads = o.scan_threads,
                           .groups = 1,
                           .bindings = kWordsOnly,
                           .args = a});
    plan.passes.push_back({.stage = sort::Stage::rts_scatter,
                           .kernel = kernel_of(sort::Stage::rts_scatter),
                           .values = values,
                           .threads = o.tile.threads,
                           .items = o.tile.items,
                           .groups = chunks.blocks,
                           .bindings = pass_bindings(d, values),
                           .args = a});
  }
}

// bitonic: every pass binds the items at binding 4; the tile pass reads the keys, the gather
// reads them (and the values) and writes the output.
sort::Bindings bitonic_items_only() {
  return {sort::Operand::words, sort::Operand::words, sort::Operand::words, sort::Operand::words,
          sort::Operand::items};
}
sort::Bindings bitonic_tiles_bindings() {
  return {sort::Operand::keys_in, sort::Operand::words, sort::Operand::words, sort::Operand::words,
          sort::Operand::items};
}
sort::Bindings bitonic_gather_bindings(SortValues values) {
  if (values == SortValues::none)
    return {sort::Operand::keys_in, sort::Operand::keys_out, sort::Operand::words,
            sort::Operand::words, sort::Operand::items};
  return {sort::Operand::keys_in, sort::Operand::keys_out, sort::Operand::values_in,
          sort::Operand::values_out, sort::Operand::items};
}

// The items first, then one unused word: no alternates.
void lay_out_items(sort::Schedule& plan, std::uint64_t padded, DType t) {
  plan.items_at = 0;
  plan.items_bytes = padded * bitonic_item_bytes(t);
  plan.alternate_keys_at = plan.alternate_values_at = 0;
  plan.words_at = align256(plan.items_bytes);
  plan.scratch_bytes = plan.words_at + 4;
  plan.fallbacks_at.reset();
  plan.grid_at.reset();
  plan.tiles = 0;
}

// The tile of a sort of n keys: the options' invocations, with fewer items each where half the
// tile would still hold the keys, so that a sort below one tile pads (and compares) less.
sort::Tile bitonic_tile_for(std::uint64_t n, sort::Tile tile) {
  while (tile.items > 1 && tile.keys() / 2 >= n) tile.items /= 2;
  return tile;
}

sort::Pass bitonic_step_pass(const BitonicStep& step, const sort::Args& base, sort::Tile tile,
                             std::uint64_t tiles) {
  sort::Args args = base;
  args.stage = u32(step.stage);
  if (step.kind == BitonicStepKind::merge_global) {
    args.stride = u32(step.stride);
    const std::uint64_t pairs = std::uint64_t{base.padded} / 2;
    return {.stage = sort::Stage::bitonic_global,
            .kernel = kernel_of(sort::Stage::bitonic_global),
            .threads = kBitonicStepThreads,
            .groups = (pairs + kBitonicStepThreads - 1) / kBitonicStepThreads,
            .bindings = bitonic_items_only(),
            .args = args};
  }
  const bool first = step.kind == BitonicStepKind::sort_tiles;
  return {.stage = first ? sort::Stage::bitonic_tiles : sort::Stage::bitonic_merge,
          .kernel = kernel_of(first ? sort::Stage::bitonic_tiles : sort::Stage::bitonic_merge),
          .threads = tile.threads,
          .items = tile.items,
          .groups = tiles,
          .bindings = first ? bitonic_tiles_bindings() : bitonic_items_only(),
          .args = args};
}

// bitonic: the capacity's tile for every call; a counted call sorts the capacity's items, those
// past its count padding.
void plan_bitonic(sort::Schedule& plan, const sort::CallSize& size, DType t, SortValues values,
                  BitRange bits, const sort::ScheduleOptions& o) {
  const sort::Tile tile = bitonic_tile_for(size.capacity, o.bitonic);
  const auto padded_for = [&](std::uint64_t n) {
    return std::max<std::uint64_t>(std::bit_ceil(n), tile.keys());
  };
  const std::uint64_t padded = padded_for(size.n);
  lay_out_items(plan, padded_for(size.capacity), t);
  sort::Args base = call_args(size);
  base.begin = bits.begin;
  base.end = bits.end;
  base.tiles = u32(padded / tile.keys());
  base.padded = u32(padded);
  for_each_bitonic_step(padded, tile.keys(), [&](const BitonicStep& step) {
    plan.passes.push_back(bitonic_step_pass(step, base, tile, base.tiles));
  });
  plan.passes.push_back({.stage = sort::Stage::bitonic_gather,
                         .kernel = kernel_of(sort::Stage::bitonic_gather),
                         .values = values,
                         .threads = kBitonicStepThreads,
                         .groups = (size.n + kBitonicStepThreads - 1) / kBitonicStepThreads,
                         .bindings = bitonic_gather_bindings(values),
                         .args = base});
}

}  // namespace

const sort::StageForms& sort_stage_forms(sort::Stage s) {
  return stage_table()[static_cast<std::size_t>(s)];
}

const sort::StageForms* sort_stage_forms(std::string_view kernel) {
  for (const sort::StageForms& s : stage_table())
    if (s.kernel == kernel) return &s;
  return nullptr;
}

std::uint32_t sort_key_kind(DType t) {
  if (t == DType::u32 || t == DType::u64) return 0;
  return is_integer(t) ? 1 : 2;
}

std::uint64_t sort_counted_max_keys(sort::Family family, const sort::ScheduleOptions& options) {
  if (family == sort::Family::onesweep)
    return kMaxPortionKeys / options.tile.keys() * options.tile.keys();
  return family == sort::Family::bitonic ? kBitonicPlanMaxKeys : kSortNarrowMaxKeys;
}

void plan_sort_call(sort::Schedule& plan, sort::Family family, const sort::CallSize& size, DType t,
                    SortValues values, BitRange bits, const sort::ScheduleOptions& options) {
  const std::uint64_t n = size.n;
  if (n == 0 || size.capacity > sort_plan_max_keys(family))
    throw Error(ErrorCategory::usage,
                "plan_sort_call: " + std::to_string(size.capacity) + " keys (1 to " +
                    std::to_string(sort_plan_max_keys(family)) + " are planned)");
  if (n > size.capacity || (size.counted && n != size.capacity))
    throw Error(ErrorCategory::usage, "plan_sort_call: a call of " + std::to_string(n) +
                                          " keys over a layout for " +
                                          std::to_string(size.capacity));
  if (size.counted && n > sort_counted_max_keys(family, options))
    throw Error(ErrorCategory::usage, "plan_sort_call: a count on the device takes at most " +
                                          std::to_string(sort_counted_max_keys(family, options)) +
                                          " keys here");
  if (sort_needs_wide(size.capacity) && !options.wide)
    throw Error(ErrorCategory::usage, "plan_sort_call: " + std::to_string(size.capacity) +
                                          " keys need the wide form (past " +
                                          std::to_string(kSortNarrowMaxKeys) + ")");
  if (family == sort::Family::bitonic && options.wide)
    throw Error(ErrorCategory::usage, "plan_sort_call: bitonic/smem has no wide form");
  if (bits.begin >= bits.end || bits.end > 8 * size_of(t))
    throw Error(ErrorCategory::usage, "plan_sort_call: a bit range outside the key");
  if (family != sort::Family::bitonic && options.tile.threads < kRadix)
    throw Error(ErrorCategory::usage, "plan_sort_call: a tile of fewer than 256 threads");
  if (family == sort::Family::bitonic &&
      !(std::has_single_bit(options.bitonic.threads) && std::has_single_bit(options.bitonic.items)))
    throw Error(ErrorCategory::usage, "plan_sort_call: a bitonic tile not a power of two");
  plan.passes.clear();
  plan.capacity = size.capacity;
  if (family == sort::Family::onesweep)
    plan_onesweep(plan, size, t, values, bits, options);
  else if (family == sort::Family::reduce_then_scan)
    plan_reduce_then_scan(plan, size, t, values, bits, options);
  else
    plan_bitonic(plan, size, t, values, bits, options);
}

void plan_counted_call(sort::Schedule& plan, std::string_view id, sort::Family family, DType t,
                       SortValues values, BitRange bits, const sort::ScheduleOptions& options) {
  const std::uint64_t n = plan.capacity;
  const std::uint64_t most = sort_counted_max_keys(family, options);
  if (n > most)
    throw Error(ErrorCategory::unsupported,
                std::string(id) + " takes a count on the device for at most " +
                    std::to_string(most) + " keys here, and this Sort was made for " +
                    std::to_string(n));
  plan_sort_call(plan, family, {.n = n, .capacity = n, .counted = true}, t, values, bits, options);
}

sort::Schedule plan_sort_call(sort::Family family, std::uint64_t n, DType t, SortValues values,
                              BitRange bits, const sort::ScheduleOptions& options) {
  sort::Schedule plan;
  plan_sort_call(plan, family, {.n = n, .capacity = n}, t, values, bits, options);
  plan.tuning = options.tuning;
  return plan;
}

}  // namespace xr
