// fast/reduce-then-scan, pass 3 (the port of shaders/scan_rts_tiles.comp, CUDA's scan_rts_tiles):
// work-group b rescans its chunk [b * param, (b + 1) * param) of the input tile by tile
// (scan_tile.cl), starting from the chunk's prefix: aux at aux_offset + b with kHasPrefix, the
// identity when one work-group covers n (passes 1 and 2 skipped; also the look-back's one-group
// path, where param = n).
XR_KERNEL {
  XR_UNUSED_ARGS;
  __local T slots[TILE_SLOTS];
  const uint group = (uint)get_group_id(0);
  if (group >= groups) return;  // uniform over the work-group
  const IDX begin = (IDX)group * param;
  const IDX chunk_end = begin + param;
  const IDX end = chunk_end < (IDX)n ? chunk_end : (IDX)n;
  T running = (flags & kHasPrefix) != 0u ? aux[aux_offset + group] : IDENTITY;
  Tile tile;
  for (IDX base = begin; base < end; base += TILE_ELEMENTS) {  // uniform: barriers inside
    tile_load(&tile, src + in_offset, base, end);
    tile_scan(&tile, slots);
    tile_store(&tile, dst + out_offset, base, end, running, EXCLUSIVE_SCAN());
    running = OP(running, tile.aggregate);
  }
}
