// fast/vectorized (shaders/fast_vectorized.comp, CUDA fast_vectorized): 16-byte loads over a
// grid-stride loop, a work-group fold (wg_reduce), one partial per work-group; the host runs it
// again over the partials (the best two-pass form).
XR_KERNEL {
  XR_UNUSED_ARGS;
  __local T slots[WG];
  const uint group = (uint)get_group_id(0);
  const uint tid = (uint)get_local_id(0);
  const IDX threads = (IDX)groups * WG;
  const T v = wg_reduce(vector_fold(src + in_offset, (IDX)n, (IDX)group * WG + tid, threads), slots);
  if (tid == 0u) dst[out_offset + group] = v;
}
