#version 450
// radix/reduce-then-scan's downsweep: workgroup b ranks its chunk tile by tile (sort_tile.glsl)
// and writes each tile's keys (and values) from its digits' running first indices. Digit d's
// starts after every smaller digit's keys (the scan over the digits of the rows' totals, the
// last count of each row of the scanned table at pc.bins_in) and after its keys in blocks before
// b (row d's count b - 1).
#ifndef SORT_RANK_COUNT  // sort_tile.glsl: the ranking by ballots
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
#include "sort_common.glsl"
#include "sort_tile.glsl"

void main() {
  const uint b = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (b >= pc.blocks) return;
  const uint d = gl_LocalInvocationIndex;
  const uint row = pc.bins_in + d * pc.blocks * kCountWords;
  const IDX earlier = d < kRadix && b > 0u ? load_count(row + (b - 1u) * kCountWords) : IDX(0u);
  const IDX total = d < kRadix ? load_count(row + (pc.blocks - 1u) * kCountWords) : IDX(0u);
  IDX next = exclusive_over_digit_counts(total) + earlier;
  const uint first_tile = b * pc.tiles;
  for (uint t = first_tile; t < first_tile + pc.tiles; ++t) {
    const IDX base = IDX(t) * TILE;
    if (base >= PC_N) break;
    const uint valid = uint(min(IDX(TILE), PC_N - base));
    zero_tile_counters();
    barrier();
    load_tile(base, valid);
    uint total;
    const uint count = count_tile(valid, total);
    const uint start = place_tile(total);
#ifdef PAIRS
    load_values(base, valid);
#endif
    if (d < kRadix) digit_first[d] = next - start;
    next += count;
    barrier();
    write_tile(valid);
    barrier();  // the tile is out before the next one is staged
  }
}
