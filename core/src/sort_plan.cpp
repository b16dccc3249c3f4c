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

unsigned radix_digit_count(BitRange bits) {
  if (bits.begin >= bits.end)
    throw Error(ErrorCategory::usage, "radix_digit_passes: an empty bit range");
  return (bits.end - bits.begin + kRadixDigitBits - 1) / kRadixDigitBits;
}

DigitPass radix_digit_pass(BitRange bits, unsigned p) {
  const unsigned count = radix_digit_count(bits);
  // Pass p writes the output when count - 1 - p is even: the last one always does.
  const auto writes = [count](unsigned q) {
    return (count - 1 - q) % 2 == 0 ? sort::Buffer::output : sort::Buffer::alternate;
  };
  DigitPass d;
  d.shift = bits.begin + kRadixDigitBits * p;
  d.width = std::min(kRadixDigitBits, bits.end - d.shift);
  d.writes = writes(p);
  d.reads = p == 0 ? sort::Buffer::input : writes(p - 1);
  return d;
}

std::vector<DigitPass> radix_digit_passes(BitRange bits) {
  std::vector<DigitPass> passes(radix_digit_count(bits));
  for (unsigned p = 0; p < passes.size(); ++p) passes[p] = radix_digit_pass(bits, p);
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

std::size_t radix_chunks_most_blocks(std::size_t capacity, std::size_t tile, std::size_t wave,
                                     std::size_t max_block_keys) {
  // radix_chunks' blocks never pass its first bound, which grows with n.
  radix_chunks(capacity, tile, wave, max_block_keys);  // its checks
  const std::size_t fewest = ceil_div(capacity, max_block_keys / tile * tile);
  return std::min(ceil_div(capacity, tile), std::max(std::max<std::size_t>(wave, 1), fewest));
}

sort::Portion sort::Portions::at(std::size_t i) const {
  const std::size_t first = i * per_portion;
  const auto set = static_cast<unsigned>(i % 2);
  return {first, std::min(per_portion, tiles - first), set, 1 - set};
}

sort::Portions onesweep_portion_split(std::size_t n, std::size_t tile,
                                      std::size_t max_portion_keys) {
  if (n == 0 || tile == 0 || max_portion_keys < tile)
    throw Error(ErrorCategory::usage,
                "onesweep_portion_split: no keys, no tile or portions below a tile");
  const std::size_t tiles = ceil_div(n, tile);
  return {tiles, std::min(tiles, max_portion_keys / tile)};
}

BitonicSchedule bitonic_schedule(std::size_t n, std::size_t tile) {
  if (n == 0 || tile == 0 || !std::has_single_bit(tile))
    throw Error(ErrorCategory::usage, "bitonic_schedule: no keys or a tile not a power of two");
  BitonicSchedule s;
  s.padded = std::max(std::bit_ceil(n), tile);
  s.tiles = s.padded / tile;
  s.stages = static_cast<unsigned>(std::countr_zero(s.tiles));
  for_each_bitonic_step(s.padded, tile, [&](const BitonicStep& step) { s.steps.push_back(step); });
  return s;
}

}  // namespace xr
