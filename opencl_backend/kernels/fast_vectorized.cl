// fast/vectorized (shaders/fast_vectorized.comp, CUDA fast_vectorized): 16-byte loads over a
// grid-stride loop, a work-group fold (wg_reduce), one partial per work-group; the host runs it
// again over the partials (the best two-pass form).
// This work-item's grid-stride fold (shaders/vector_fold.glsl): 16-byte vectors, UNROLL in flight
// per iteration, the last n % 4 elements scalar. The host keeps in_offset a multiple of 4 elements.
T vector_fold(__global const E* in, IDX n_, IDX gid, IDX threads) {
  const IDX n4 = n_ / 4u;
  // i < unrolled_end: all UNROLL loads, the last (UNROLL - 1) * threads vectors past i, in range.
  const IDX span = (IDX)(UNROLL - 1u) * threads;
  const IDX unrolled_end = n4 > span ? n4 - span : 0u;
  T4 acc = (T4)(IDENTITY);
  IDX i = gid;
  for (; i < unrolled_end; i += UNROLL * threads) {
#pragma unroll
    for (uint u = 0u; u < UNROLL; ++u) acc = OP4(acc, LOAD4(in, i + u * threads));
  }
  for (; i < n4; i += threads) acc = OP4(acc, LOAD4(in, i));
  T v = OP(OP(acc.x, acc.y), OP(acc.z, acc.w));
  if (gid < n_ - n4 * 4u) v = OP(v, LOAD(in, n4 * 4u + gid));
  return v;
}

XR_KERNEL {
  XR_UNUSED_ARGS;
  __local T slots[WG];
  const uint group = (uint)get_group_id(0);
  const uint tid = (uint)get_local_id(0);
  const IDX threads = (IDX)groups * WG;
  const T v = wg_reduce(vector_fold(src + in_offset, (IDX)n, (IDX)group * WG + tid, threads), slots);
  if (tid == 0u) dst[out_offset + group] = v;
}
