#version 450
// bitonic/smem: the tail of stage pc.stage (> TILE), its strides TILE/2 .. 1, each tile in shared
// memory (one workgroup a tile).
#define SORT_ITEMS
#include "sort_common.glsl"
#include "sort_bitonic.glsl"
#include "sort_bitonic_tile.glsl"

void main() {
  const uint t = workgroup_index();
  if (t >= pc.tiles) return;
  const uint base = t * TILE;
  load_tile(base);
  for (uint j = TILE / 2u; j > 0u; j /= 2u) {
    barrier();
    tile_step(base, pc.stage, j);
  }
  barrier();
  store_tile(base);
}
