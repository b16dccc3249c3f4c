// smem/interleaved-divergent (Harris #1, HLSL step #1): interleaved addressing with a modulo test,
// so the active work-items of every step are scattered across sub-groups (divergent).
XR_KERNEL {
  XR_UNUSED_ARGS;
  __local T sdata[WG];
  const uint group = (uint)get_group_id(0);
  const uint tid = (uint)get_local_id(0);
  sdata[tid] = LOAD_OR_IDENTITY((IDX)group * WG + tid);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 1u; s < WG; s *= 2u) {
    if (tid % (2u * s) == 0u) sdata[tid] = OP(sdata[tid], sdata[tid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0u) dst[out_offset + group] = sdata[0];
}
