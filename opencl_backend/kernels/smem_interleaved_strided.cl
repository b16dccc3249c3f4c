// smem/interleaved-strided (Harris #2, HLSL step #2): the pairs of #1, but work-item tid handles
// index 2*s*tid, so the active work-items are contiguous (no divergence, bank conflicts instead).
XR_KERNEL {
  XR_UNUSED_ARGS;
  __local T sdata[WG];
  const uint group = (uint)get_group_id(0);
  const uint tid = (uint)get_local_id(0);
  sdata[tid] = LOAD_OR_IDENTITY((IDX)group * WG + tid);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 1u; s < WG; s *= 2u) {
    const uint index = 2u * s * tid;
    if (index < WG) sdata[index] = OP(sdata[index], sdata[index + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0u) dst[out_offset + group] = sdata[0];
}
