// radix/reduce-then-scan's upsweep (shaders/sort_rts_count.comp): work-group b counts the digits
// of its chunk (pc.tiles tiles of WG x UNROLL keys from tile b * pc.tiles) into row b of the
// digit-major table at pc.bins_in (digit d's count at count d * pc.blocks + b).
SORT_KERNEL {
  SORT_OPERANDS();
  __local uint counts[kRadix];
  const uint tid = (uint)get_local_id(0), b = (uint)get_group_id(0);
  for (uint d = tid; d < kRadix; d += WG) counts[d] = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  const IDX first = (IDX)b * pc.tiles * (WG * UNROLL);
  const IDX last = first + min(PC_N - first, (IDX)(pc.tiles * (WG * UNROLL)));  // no wrap
  for (IDX i = first + tid; i < last; i += WG)
    atomic_inc(&counts[digit_at(sort_bits((BITS)keys_in[i], mode), pc.shift, pc.width)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = tid; d < kRadix; d += WG)
    store_count(words, pc.bins_in + (d * pc.blocks + b) * kCountWords, counts[d]);
}
