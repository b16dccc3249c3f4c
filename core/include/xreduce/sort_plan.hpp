// One plan per sort family, in core: the passes every API's sort variants run, which buffers each
// reads and writes, how a pass over more keys than one launch ranks is split, and the bitonic
// network's steps. Each GPU API translates a plan into its launches (CUDA's dispatch_sort_*.cu)
// and applies its own tiles and device limits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "xreduce/primitive.hpp"

namespace xr {

inline constexpr unsigned kRadixDigitBits = 8;  // 256 counters a digit: one thread each

namespace sort {
// The key arrays a pass reads or writes: the caller's input (never written), the caller's
// output, and one alternate array of n keys (and values) in the temporary storage.
enum class Buffer : std::uint8_t { input, output, alternate };
}  // namespace sort

// One digit pass of an LSD radix sort: the digit is bits [shift, shift + width) of the sort bits
// (sort_keys.hpp).
struct DigitPass {
  unsigned shift = 0;
  unsigned width = kRadixDigitBits;  // 1..8: the last pass takes the bits left
  sort::Buffer reads = sort::Buffer::input;
  sort::Buffer writes = sort::Buffer::output;
};

// The digit passes over `bits` (effective: begin < end), 8 bits a pass from bits.begin: the
// first reads the input, the last writes the output, and between them they ping-pong through the
// alternate so that an odd or an even number of passes both end in the output.
std::vector<DigitPass> radix_digit_passes(BitRange bits);
// The same one at a time, without a vector: how many, and pass p of them.
unsigned radix_digit_count(BitRange bits);
DigitPass radix_digit_pass(BitRange bits, unsigned p);
// Whether any pass reads or writes the alternate (more than one pass).
bool needs_alternate(const std::vector<DigitPass>& passes);

// reduce-then-scan: each block counts (upsweep) and scatters (downsweep) one contiguous chunk of
// whole tiles, so that its digit counts are one row of the scanned table.
struct RadixChunks {
  std::size_t tiles = 0;            // over n
  std::size_t tiles_per_block = 0;  // > 0
  std::size_t blocks = 0;           // no block without a tile
};
// At most `wave` blocks (one resident wave), but enough that no block counts more than
// `max_block_keys` keys (its counters' range).
RadixChunks radix_chunks(std::size_t n, std::size_t tile, std::size_t wave,
                         std::size_t max_block_keys);
// The most blocks radix_chunks gives any n from 1 to `capacity`: the rows a table laid out for
// `capacity` keys needs for every call up to it.
std::size_t radix_chunks_most_blocks(std::size_t capacity, std::size_t tile, std::size_t wave,
                                     std::size_t max_block_keys);

namespace sort {
// onesweep: a launch of a digit pass ranks one portion of whole tiles whose counts fit its status
// words (at most `max_portion_keys` keys); the portions of a pass run in order, each reading
// every digit's first index from one of two bin sets and writing the next portion's into the
// other.
struct Portion {
  std::size_t first_tile = 0;
  std::size_t tiles = 0;
  unsigned bins_in = 0;  // 0 or 1: the bin set read
  unsigned bins_out = 1;
};
// The portions of n keys and portion i of them, computed as they are read (no vector).
struct Portions {
  std::size_t tiles = 0;        // over n
  std::size_t per_portion = 0;  // tiles a portion, the last one's fewer
  std::size_t count() const { return (tiles + per_portion - 1) / per_portion; }
  Portion at(std::size_t i) const;
};
}  // namespace sort
sort::Portions onesweep_portion_split(std::size_t n, std::size_t tile,
                                      std::size_t max_portion_keys);
// onesweep's look-back: the predecessors one poll reads per digit, as independent loads (one
// round trip's latency for all of them): 8 cost no more than 1 and walk back over many tiles in
// fewer round trips; 32 are slower. Every API's onesweep reads this window: CUDA's template
// argument, Vulkan's specialization constant 4, OpenCL's -DWINDOW.
inline constexpr std::uint32_t kSortLookBackWindow = 8;
// onesweep below one tile: a single block sorts the keys through every digit pass in its shared
// memory and writes the output once (CUB's single-tile sort does the same), one launch where the
// passes take the histograms, their scan and a launch per digit.
inline bool onesweep_one_tile(std::size_t n, std::size_t tile) {
  return n <= tile;
}

// bitonic: the keys padded to a power of two (at least one tile) as items; each tile sorted in
// place, then per stage k = 2 tile .. padded a global compare-exchange step for every stride
// j >= tile and one in-tile merge for the strides below; then the items gathered into the output.
enum class BitonicStepKind : std::uint8_t { sort_tiles, merge_global, merge_tiles };
struct BitonicStep {
  BitonicStepKind kind = BitonicStepKind::sort_tiles;
  std::size_t stage = 0;   // k: the size of the sequences being merged
  std::size_t stride = 0;  // j: merge_global's compare distance
};
struct BitonicSchedule {
  std::size_t padded = 0;
  std::size_t tiles = 0;
  unsigned stages = 0;  // merge stages past the tile
  std::vector<BitonicStep> steps;
};
BitonicSchedule bitonic_schedule(std::size_t n, std::size_t tile);
// The steps of bitonic_schedule over `padded` items (a power of two, at least one tile), handed
// to `visit` one at a time, without a vector.
template <class Visit>
void for_each_bitonic_step(std::size_t padded, std::size_t tile, Visit&& visit) {
  visit(BitonicStep{BitonicStepKind::sort_tiles, tile, 0});
  for (std::size_t k = 2 * tile; k <= padded; k *= 2) {
    for (std::size_t j = k / 2; j >= tile; j /= 2)
      visit(BitonicStep{BitonicStepKind::merge_global, k, j});
    visit(BitonicStep{BitonicStepKind::merge_tiles, k, 0});
  }
}

}  // namespace xr
