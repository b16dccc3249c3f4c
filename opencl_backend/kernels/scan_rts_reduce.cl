// fast/reduce-then-scan, pass 1 (the port of shaders/scan_rts_reduce.comp, CUDA's
// scan_rts_reduce): work-group b folds its contiguous chunk [b * param, (b + 1) * param) of the
// input into partial aux_offset + b of aux, with UNROLL vector loads of 4 elements in flight per
// work-item. The chunk is a multiple of the tile, so every chunk starts vector-aligned; its
// pointer is formed once, vector offsets within it are 32-bit (a chunk holds fewer than 2^32
// elements); the last chunk's n % 4 elements are loaded one by one.
XR_KERNEL {
  XR_UNUSED_ARGS;
  __local T slots[WG];
  const uint group = (uint)get_group_id(0);
  if (group >= groups) return;  // uniform over the work-group
  const uint tid = (uint)get_local_id(0);
  const IDX begin = (IDX)group * param;
  const IDX chunk_end = begin + param;
  const IDX end = chunk_end < (IDX)n ? chunk_end : (IDX)n;
  const uint len = (uint)(end - begin);  // at most param
  const uint len4 = len / 4u;
  __global const E* at = src + in_offset + begin;
  T4 acc = (T4)(IDENTITY);
  uint i = tid;
  for (; i + (UNROLL - 1u) * WG < len4; i += UNROLL * WG) {
#pragma unroll
    for (uint u = 0u; u < UNROLL; ++u) acc = OP4(acc, LOAD4(at, i + u * WG));
  }
  for (; i < len4; i += WG) acc = OP4(acc, LOAD4(at, i));
  T v = OP(OP(acc.x, acc.y), OP(acc.z, acc.w));
  const uint tail = len4 * 4u + tid;  // the last chunk's n % 4 elements
  if (tail < len) v = OP(v, LOAD(at, tail));
  v = wg_reduce(v, slots);
  if (tid == 0u) aux[aux_offset + group] = v;
}
