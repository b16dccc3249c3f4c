// bitonic/smem's first pass (shaders/sort_bitonic_tiles.comp): work-group t makes the items of
// keys [t * TILE, (t + 1) * TILE) (the padding past n: the largest rank, positions from n up)
// and sorts them through the stages k = 2 .. TILE in local memory; tiles then hold runs of TILE,
// ascending and descending by turns (what stage 2 * TILE merges).
SORT_KERNEL {
  SORT_OPERANDS();
  __local ITEM tile[TILE];
  __global ITEM* items = ITEMS_OF(words);
  const uint t = (uint)get_group_id(0), lane = (uint)get_local_id(0);
  const uint base = t * TILE;
#pragma unroll
  for (uint r = 0; r < UNROLL; ++r) {
    const uint position = base + r * WG + lane;
    const BITS rank =
        position < pc.n ? rank_of((BITS)keys_in[position], &pc, mode) : rank_mask(&pc);
    tile[r * WG + lane] = make_item(rank, position);
  }
  for (uint k = 2u; k <= TILE; k *= 2u)
    for (uint j = k / 2u; j > 0u; j /= 2u) {
      barrier(CLK_LOCAL_MEM_FENCE);
      tile_step(tile, base, k, j);
    }
  barrier(CLK_LOCAL_MEM_FENCE);
  store_tile(tile, items, base);
}
