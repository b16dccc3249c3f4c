// 128-bit loads (uvec4/ivec4/vec4) over a grid-stride loop, UNROLL independent loads in flight per
// invocation and iteration, a scalar tail for the last n % 4 elements. The host keeps
// pc.in_offset a multiple of 4 elements so every vector load is 16-byte aligned.
// Requires: common.glsl's src_at and src4_at (the pass's input at pc.src).

// Vector loads per invocation and iteration (4 x 16 bytes in flight). Not swept against other
// values; with it fast/vectorized streams near the read probe (docs/results/H200/tuning-notes.md).
layout(constant_id = 1) const uint UNROLL = 4;

T vector_fold(uint gid, uint threads) {
  const IDX n4 = PC_N / 4;
  // Absolute vector indices (pc.in_offset / 4 folded in once) and a hoisted bound for the
  // unrolled loop: the 64-bit index costs an iteration one add and one compare besides its loads.
  const IDX base4 = pc.in_offset / 4;
  const IDX end4 = base4 + n4;
  // i < unrolled_end: all UNROLL loads, the last (UNROLL - 1) * threads vectors past i, in range.
  const IDX span = IDX(UNROLL - 1) * threads;
  const IDX unrolled_end = n4 > span ? end4 - span : base4;
  T4 acc = T4(IDENTITY);
  IDX i = base4 + gid;
  for (; i < unrolled_end; i += UNROLL * threads) {
    [[unroll]] for (uint u = 0; u < UNROLL; ++u) acc = OP(acc, src4_at(i + u * threads));
  }
  for (; i < end4; i += threads) acc = OP(acc, src4_at(i));
  T v = OP(OP(acc.x, acc.y), OP(acc.z, acc.w));
  const uint tail = uint(PC_N - n4 * 4);
  if (gid < tail) v = OP(v, src_at(pc.in_offset + n4 * 4 + gid));
  return v;
}
