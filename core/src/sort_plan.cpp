#include "xreduce/sort_plan.hpp"

#include <algorithm>
#include <bit>

#include "xreduce/error.hpp"

namespace xr {
namespace {

std::size_t ceil_div(std::size_t a, std::size_t b) {
  return (a + b - 1) / b;
}

}  // namespace

std::vector<DigitPass> radix_digit_passes(BitRange bits) {
  if (bits.begin >= bits.end)
    throw Error(ErrorCategory::usage, "radix_digit_passes: an empty bit range");
  const unsigned count = (bits.end - bits.begin + kRadixDigitBits - 1) / kRadixDigitBits;
  std::vector<DigitPass> passes(count);
  for (unsigned p = 0; p < count; ++p) {
    DigitPass& d = passes[p];
    d.shift = bits.begin + kRadixDigitBits * p;
    d.width = std::min(kRadixDigitBits, bits.end - d.shift);
    // Pass p writes the output when count - 1 - p is even: the last one always does.
    d.writes = (count - 1 - p) % 2 == 0 ? sort::Buffer::output : sort::Buffer::alternate;
    d.reads = p == 0 ? sort::Buffer::input : passes[p - 1].writes;
  }
  return passes;
}

bool needs_alternate(const std::vector<DigitPass>& passes) {
  return std::any_of(passes.begin(), passes.end(),
                     [](const DigitPass& d) { return d.writes == sort::Buffer::alternate; });
}

RadixChunks radix_chunks(std::size_t n, std::size_t tile, std::size_t wave,
                         std::size_t max_block_keys) {
  if (n == 0 || tile == 0 || max_block_keys < tile)
    throw Error(ErrorCategory::usage, "radix_chunks: no keys, no tile or chunks below a tile");
  RadixChunks c;
  c.tiles = ceil_div(n, tile);
  const std::size_t fewest = ceil_div(n, max_block_keys / tile * tile);
  const std::size_t blocks = std::min(c.tiles, std::max(std::max<std::size_t>(wave, 1), fewest));
  c.tiles_per_block = ceil_div(c.tiles, blocks);
  c.blocks = ceil_div(c.tiles, c.tiles_per_block);
  return c;
}

std::vector<sort::Portion> onesweep_portions(std::size_t n, std::size_t tile,
                                             std::size_t max_portion_keys) {
  if (n == 0 || tile == 0 || max_portion_keys < tile)
    throw Error(ErrorCategory::usage,
                "onesweep_portions: no keys, no tile or portions below a tile");
  const std::size_t tiles = ceil_div(n, tile);
  const std::size_t per_portion = std::min(tiles, max_portion_keys / tile);
  std::vector<sort::Portion> out;
  for (std::size_t first = 0; first < tiles; first += per_portion) {
    const unsigned set = static_cast<unsigned>(out.size() % 2);
    out.push_back({first, std::min(per_portion, tiles - first), set, 1 - set});
  }
  return out;
}

BitonicSchedule bitonic_schedule(std::size_t n, std::size_t tile) {
  if (n == 0 || tile == 0 || !std::has_single_bit(tile))
    throw Error(ErrorCategory::usage, "bitonic_schedule: no keys or a tile not a power of two");
  BitonicSchedule s;
  s.padded = std::max(std::bit_ceil(n), tile);
  s.tiles = s.padded / tile;
  s.stages = static_cast<unsigned>(std::countr_zero(s.tiles));
  s.steps.push_back({BitonicStepKind::sort_tiles, tile, 0});
  for (std::size_t k = 2 * tile; k <= s.padded; k *= 2) {
    for (std::size_t j = k / 2; j >= tile; j /= 2)
      s.steps.push_back({BitonicStepKind::merge_global, k, j});
    s.steps.push_back({BitonicStepKind::merge_tiles, k, 0});
  }
  return s;
}

}  // namespace xr
