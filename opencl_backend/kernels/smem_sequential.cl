// smem/sequential (Harris #3, HLSL step #3): sequential addressing, the active half folds the
// upper half onto itself (conflict-free, half the work-items idle from the first step).
XR_KERNEL {
  XR_UNUSED_ARGS;
  __local T sdata[WG];
  const uint group = (uint)get_group_id(0);
  const uint tid = (uint)get_local_id(0);
  sdata[tid] = LOAD_OR_IDENTITY((IDX)group * WG + tid);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG / 2u; s > 0u; s >>= 1) {
    if (tid < s) sdata[tid] = OP(sdata[tid], sdata[tid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0u) dst[out_offset + group] = sdata[0];
}
