// fast/single-pass (shaders/fast_single_pass.comp, CUDA fast_single_pass): fast/vectorized's fold,
// each work-group publishes its partial and takes a ticket; the one that draws the last ticket
// folds all partials in work-group order (deterministic), writes dst and resets the ticket.
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
