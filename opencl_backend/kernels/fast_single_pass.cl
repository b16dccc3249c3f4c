// fast/single-pass (shaders/fast_single_pass.comp, CUDA fast_single_pass): fast/vectorized's fold,
// each work-group publishes its partial and takes a ticket; the one that draws the last ticket
// folds all partials in work-group order (deterministic), writes dst and resets the ticket.
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
  __local uint is_last;
  const uint group = (uint)get_group_id(0);
  const uint tid = (uint)get_local_id(0);
  const IDX threads = (IDX)groups * WG;
  const T v = wg_reduce(vector_fold(src + in_offset, (IDX)n, (IDX)group * WG + tid, threads), slots);
  if (groups == 1u) {  // one work-group covers n: no partials, no ticket
    if (tid == 0u) dst[out_offset] = v;
    return;
  }
  // aux: the ticket in its first 16 bytes, the partials (accumulators) after it.
  __global volatile uint* ticket = (__global volatile uint*)aux;
  __global volatile T* partials = (__global volatile T*)aux + 16 / T_BYTES;
  if (tid == 0u) {
    partials[group] = v;
    mem_fence(CLK_GLOBAL_MEM_FENCE);  // the partial is visible before the ticket is taken
    is_last = atomic_inc(ticket) == groups - 1u ? 1u : 0u;
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);  // also separates the two uses of slots
  if (is_last == 0u) return;  // uniform: every work-item reads the same local word
  mem_fence(CLK_GLOBAL_MEM_FENCE);  // pairs with the other work-groups' fences
  T w = IDENTITY;
  for (uint g = tid; g < groups; g += WG) {
    const T p = partials[g];  // one volatile load (OP names its operands twice)
    w = OP(w, p);
  }
  w = wg_reduce(w, slots);
  if (tid == 0u) {
    dst[out_offset] = w;
    atomic_xchg(ticket, 0u);  // ready for the next launch on the same scratch
  }
}
