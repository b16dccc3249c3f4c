#version 450
// bitonic/smem's first pass: workgroup t makes the items of keys [t * TILE, (t + 1) * TILE) (the
// padding past n: the largest rank, positions from n up) and sorts them through the stages
// k = 2 .. TILE in shared memory; tiles then hold runs of TILE, ascending and descending by turns
// (what stage 2 * TILE merges).
#define SORT_ITEMS
#include "sort_common.glsl"
#include "sort_bitonic.glsl"
#include "sort_bitonic_tile.glsl"

void load_keys(uint base) {
  const uint n = uint(sort_n());
  [[unroll]] for (uint r = 0; r < ITEMS; ++r) {
    const uint local = r * WG + gl_LocalInvocationIndex;
    const uint position = base + local;
    const BITS rank = position < n ? rank_of(key_bits(position)) : rank_mask();
    tile[local] = make_item(rank, position);
  }
}

void main() {
  const uint t = workgroup_index();
  if (t >= pc.tiles) return;
  const uint base = t * TILE;
  load_keys(base);
  for (uint k = 2u; k <= TILE; k *= 2u)
    for (uint j = k / 2u; j > 0u; j /= 2u) {
      barrier();
      tile_step(base, k, j);
    }
  barrier();
  store_tile(base);
}
