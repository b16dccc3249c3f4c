// fast/*'s grid-stride fold, shared by fast_vectorized.cl and fast_single_pass.cl (as
// shaders/vector_fold.glsl is by Vulkan's pair): this work-item's 16-byte vectors, UNROLL in
// flight per iteration, the last n % 4 elements scalar. The host keeps in_offset a multiple of 4
// elements.
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
