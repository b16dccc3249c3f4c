// bitonic/smem's local-memory tile (the port of shaders/sort_bitonic_tile.glsl), for the passes
// that run a tile's steps in one work-group (the tile sort and a stage's merge below the tile):
// WG work-items x UNROLL items, a power of two, work-item `lane` holding item r * WG + lane so
// that loads and stores coalesce.
#define TILE (WG * UNROLL)

// The tile's items from the padded items at `base`.
void load_tile(__local ITEM* tile, __global const ITEM* items, uint base) {
  const uint lane = (uint)get_local_id(0);
#pragma unroll
  for (uint r = 0; r < UNROLL; ++r) tile[r * WG + lane] = items[base + r * WG + lane];
}

// The tile back to the padded items at `base`, after a barrier.
void store_tile(__local const ITEM* tile, __global ITEM* items, uint base) {
  const uint lane = (uint)get_local_id(0);
#pragma unroll
  for (uint r = 0; r < UNROLL; ++r) items[base + r * WG + lane] = tile[r * WG + lane];
}

// One step (stage k, stride j < TILE) over the tile whose first item is item `base` of the
// whole sequence, after a barrier.
void tile_step(__local ITEM* tile, uint base, uint k, uint j) {
  for (uint q = (uint)get_local_id(0); q < TILE / 2u; q += WG) {
    const uint i = pair_first(q, j);
    const ITEM a = tile[i], b = tile[i + j];
    if (item_less(b, a) == ascending_at(base + i, k)) {
      tile[i] = b;
      tile[i + j] = a;
    }
  }
}
