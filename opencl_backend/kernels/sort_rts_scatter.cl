// radix/reduce-then-scan's downsweep (shaders/sort_rts_scatter.comp): work-group b ranks its
// chunk tile by tile (sort_tile.cl) and writes each tile's keys (and values) from its digits'
// running first indices, which start at its row of the scanned table (pc.bins_in, digit d's at
// count d * pc.blocks + b).
SORT_KERNEL {
  SORT_OPERANDS();
  TILE_LOCALS(l);
  const uint b = (uint)get_group_id(0), d = (uint)get_local_id(0);
  IDX next = d < kRadix ? load_count(words, pc.bins_in + (d * pc.blocks + b) * kCountWords) : 0u;
  TileItems t;
  if (pc.counted != 0u) pc.tiles = chunk_tiles(PC_N, TILE, pc.blocks);
  const uint first_tile = b * pc.tiles;
  for (uint tile = first_tile; tile < first_tile + pc.tiles; ++tile) {
    const IDX base = (IDX)tile * TILE;
    if (base >= PC_N) break;
    const uint valid = (uint)min((IDX)TILE, PC_N - base);
    load_tile(&t, keys_in, base, valid, &pc, mode);
    uint total;
    const uint count = count_tile(&l, &t, valid, &total);
    const uint start = place_tile(&l, &t, total, &pc, mode);
    if (d < kRadix) l.digit_first[d] = next - start;
    next += count;
    barrier(CLK_LOCAL_MEM_FENCE);
    write_tile(&l, &t, keys_out, values_in, values_out, base, valid, &pc, mode);
    barrier(CLK_LOCAL_MEM_FENCE);  // the tile is out before the next one is staged
  }
}
