// radix/reduce-then-scan's upsweep (shaders/sort_rts_count.comp): work-group b counts the digits
// of its chunk (pc.tiles tiles of WG x UNROLL keys from tile b * pc.tiles) into row b of the
// digit-major table at pc.bins_in (digit d's count at count d * pc.blocks + b). A counted call's
// chunks are its count's tiles shared over the plan's blocks.
SORT_KERNEL {
  SORT_OPERANDS();
  __local uint counts[kRadix];
  const uint tid = (uint)get_local_id(0), b = (uint)get_group_id(0);
  for (uint d = tid; d < kRadix; d += WG) counts[d] = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (pc.counted != 0u) pc.tiles = chunk_tiles(PC_N, WG * UNROLL, pc.blocks);
  const IDX first = min((IDX)b * pc.tiles * (WG * UNROLL), PC_N);
  const IDX last = first + min(PC_N - first, (IDX)(pc.tiles * (WG * UNROLL)));  // no wrap
  for (IDX i = first + tid; i < last; i += WG)
    atomic_inc(&counts[digit_at(sort_bits((BITS)keys_in[i], mode), pc.shift, pc.width)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = tid; d < kRadix; d += WG)
    store_count(words, pc.bins_in + (d * pc.blocks + b) * kCountWords, counts[d]);
}
