// bitonic/smem (shaders/sort_bitonic_merge.comp): the tail of stage pc.stage (> TILE), its
// strides TILE/2 .. 1, each tile in local memory (one work-group a tile).
SORT_KERNEL {
  SORT_OPERANDS();
  (void)mode;
  __local ITEM tile[TILE];
  __global ITEM* items = ITEMS_OF(words);
  const uint base = (uint)get_group_id(0) * TILE;
  load_tile(tile, items, base);
  for (uint j = TILE / 2u; j > 0u; j /= 2u) {
    barrier(CLK_LOCAL_MEM_FENCE);
    tile_step(tile, base, pc.stage, j);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  store_tile(tile, items, base);
}
