#version 450
// radix/reduce-then-scan's downsweep: workgroup b ranks its chunk tile by tile (sort_tile.glsl)
// and writes each tile's keys (and values) from its digits' running first indices, which start
// at its row of the scanned table (pc.bins_in, digit d's at count d * pc.blocks + b).
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
  IDX next = d < kRadix ? load_count(pc.bins_in + (d * pc.blocks + b) * kCountWords) : 0u;
  const IDX n = sort_n();
  const uint per_block = pc.counted != 0u ? chunk_tiles(n, TILE) : pc.tiles;
  const uint first_tile = b * per_block;
  for (uint t = first_tile; t < first_tile + per_block; ++t) {
    const IDX base = IDX(t) * TILE;
    if (base >= n) break;
    const uint valid = uint(min(IDX(TILE), n - base));
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
