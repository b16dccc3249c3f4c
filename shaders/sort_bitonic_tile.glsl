// bitonic/smem's shared-memory tile, for the passes that run a tile's steps in one workgroup (the
// tile sort and a stage's merge below the tile): WG invocations x ITEMS items, a power of two
// (vk_sort_plan.cpp), invocation `lane` holding item r * WG + lane so that loads and stores
// coalesce. Include after sort_bitonic.glsl.

layout(constant_id = 1) const uint ITEMS = 8;
const uint TILE = WG * ITEMS;

shared ITEM tile[TILE];

// The tile's items from the padded items at `base`.
void load_tile(uint base) {
  [[unroll]] for (uint r = 0; r < ITEMS; ++r) tile[r * WG + gl_LocalInvocationIndex] =
      items[base + r * WG + gl_LocalInvocationIndex];
}

// The tile back to the padded items at `base`, after a barrier.
void store_tile(uint base) {
  [[unroll]] for (uint r = 0; r < ITEMS; ++r) items[base + r * WG + gl_LocalInvocationIndex] =
      tile[r * WG + gl_LocalInvocationIndex];
}

// One step (stage k, stride j < TILE) over the tile whose first item is item `base` of the
// whole sequence, after a barrier.
void tile_step(uint base, uint k, uint j) {
  for (uint q = gl_LocalInvocationIndex; q < TILE / 2u; q += WG) {
    const uint i = pair_first(q, j);
    const ITEM a = tile[i], b = tile[i + j];
    if (item_less(b, a) == ascending_at(base + i, k)) {
      tile[i] = b;
      tile[i + j] = a;
    }
  }
}
