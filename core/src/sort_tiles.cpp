#include "xreduce/sort_tiles.hpp"

#include <algorithm>
#include <bit>

#include "xreduce/error.hpp"

namespace xr {
namespace {

// A digit pass's counters: 256, one an invocation.
constexpr std::uint32_t kDigitThreads = 256;
// The most invocations a sort pass's workgroup takes (a capped digit tile, the table scan).
constexpr std::uint32_t kMostThreads = 1024;
// bitonic/smem's tile before the device's limits: CUDA's, 32 KiB of items a workgroup.
constexpr sort::Tile kBitonicTile4{512, 8};  // 8-byte items: keys up to 32 bits
constexpr sort::Tile kBitonicTile8{512, 4};  // 16-byte items: 64-bit keys

}  // namespace

sort::TileChoice fit_digit_tile(const sort::Limits& limits, const DigitTileRequest& request) {
  const sort::TileBytes& bytes = request.bytes;
  sort::Tile tile = request.wanted;
  if (request.crowded_threads &&
      bytes.counters(tile.threads, limits.subgroup) > limits.shared_bytes / 2)
    tile.threads = request.crowded_threads;
  if (request.capped) {
    tile.threads = std::min({tile.threads, limits.max_threads, kMostThreads});
    if (tile.threads < kDigitThreads)
      return {tile, "a sort tile needs " + std::string(limits.workgroups) + " of " +
                        std::to_string(kDigitThreads) + ", " + limits.device + " allows " +
                        std::to_string(limits.max_threads)};
  }
  // Items past the invocations' share: the bytes are linear in them.
  const std::uint64_t taken = bytes.fixed + bytes.counters(tile.threads, limits.subgroup);
  const std::uint64_t room = limits.shared_bytes > taken ? limits.shared_bytes - taken : 0;
  const std::uint64_t item_bytes = std::uint64_t{tile.threads} * bytes.per_key;
  const std::uint64_t fits = item_bytes ? room / item_bytes : tile.items;
  tile.items = static_cast<std::uint32_t>(std::min<std::uint64_t>(tile.items, fits));
  if (tile.items == 0)
    return {tile, "a sort tile needs more than the " + std::to_string(limits.shared_bytes) +
                      " bytes of " + std::string(limits.memory) + " memory " + limits.device +
                      " has"};
  return {tile, {}};
}

sort::Tile fit_bitonic_tile(const sort::Limits& limits, DType t) {
  const std::uint64_t item_bytes = bitonic_item_bytes(t);
  sort::Tile tile = item_bytes == 16 ? kBitonicTile8 : kBitonicTile4;
  tile.threads = std::min(tile.threads, std::bit_floor(limits.max_threads));
  const auto fits = [&] { return tile.keys() * item_bytes <= limits.shared_bytes; };
  while (!fits() && tile.items > 1) tile.items /= 2;
  while (!fits() && tile.threads > 1) tile.threads /= 2;
  return tile;
}

bool sort_wide_form(sort::Family family, std::uint64_t n, DType t, bool forced,
                    std::uint64_t binding_bytes, SortValues values) {
  if (family == sort::Family::bitonic) return false;
  // The largest array: the keys, or the values (4 bytes at least).
  const std::uint64_t value = std::max<std::uint64_t>(value_bytes(values), 4);
  const std::uint64_t largest = std::max<std::uint64_t>(size_of(t), value) * n;
  return forced || largest > binding_bytes || sort_needs_wide(n);
}

std::string sort_count_refusal(std::string_view id, sort::Family family, std::uint64_t n) {
  if (n <= sort_plan_max_keys(family)) return {};
  return std::string(id) + ": " + std::to_string(n) + " keys pass " +
         std::to_string(sort_plan_max_keys(family)) + ", the most it takes";
}

std::string sort_items_refusal(std::string_view id, std::uint64_t n, DType t,
                               std::uint64_t items_bytes, std::uint64_t binding_bytes) {
  if (items_bytes <= binding_bytes) return {};
  return std::string(id) + ": " + std::to_string(n) + " " + std::string(to_string(t)) +
         " keys take " + std::to_string(items_bytes) +
         " bytes of items, past one storage-buffer binding (" + std::to_string(binding_bytes) +
         " bytes)";
}

const DigitTileTuning* digit_tuning_row(std::span<const DigitTileTuning> table,
                                        std::string_view ranking, DType t) {
  const std::uint32_t key_bytes = size_of(t) == 8 ? 8 : 4;
  for (const DigitTileTuning& row : table)
    if (row.ranking == ranking && row.key_bytes == key_bytes) return &row;
  return nullptr;
}

const DigitTileTuning& find_digit_tuning(std::span<const DigitTileTuning> table,
                                         std::string_view ranking, DType t) {
  if (const DigitTileTuning* row = digit_tuning_row(table, ranking, t)) return *row;
  const std::uint32_t key_bytes = size_of(t) == 8 ? 8 : 4;
  throw Error(ErrorCategory::unsupported, "no digit tile tuned for " + std::string(ranking) +
                                              " and " + std::to_string(8 * key_bytes) +
                                              "-bit keys");
}

namespace {

std::string tile_text(sort::Tile t) {
  return std::to_string(t.threads) + " x " + std::to_string(t.items);
}

std::string digit_tuning(const sort::Tile& fitted, const DigitTileRequest& digit) {
  std::string s = "digit tile " + tile_text(fitted);
  if (fitted.threads != digit.wanted.threads || fitted.items != digit.wanted.items)
    s += " (" + tile_text(digit.wanted) + " asked, fitted to the device)";
  return s + ": " + std::string(digit.evidence);
}

}  // namespace

sort::ScheduleOptions sort_plan_options(const sort::Limits& limits, sort::Family family, DType t,
                                        bool wide, std::uint32_t polls,
                                        const DigitTileRequest& digit) {
  sort::ScheduleOptions o;
  if (family == sort::Family::bitonic) {
    o.bitonic = fit_bitonic_tile(limits, t);
    o.tuning = "bitonic tile " + tile_text(o.bitonic) +
               ": CUDA's 32 KiB of items a workgroup, halved to the device; not measured here";
  } else {
    const sort::TileChoice choice = fit_digit_tile(limits, digit);
    if (!choice.fits()) throw Error(ErrorCategory::unsupported, choice.why);
    o.tile = choice.tile;
    o.tuning = digit_tuning(choice.tile, digit);
  }
  o.wide = wide;
  o.wave = limits.cpu ? 16 : 256;
  o.scan_threads = std::min(kMostThreads, limits.max_threads);
  o.polls = polls;
  return o;
}

}  // namespace xr
