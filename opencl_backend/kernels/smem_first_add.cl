// smem/first-add (Harris #4, classic Unrolling2): each work-item combines two elements, WG apart,
// while loading, so a work-group covers 2*WG elements; then sequential addressing (#3).
XR_KERNEL {
  XR_UNUSED_ARGS;
  __local T sdata[WG];
  const uint group = (uint)get_group_id(0);
  const uint tid = (uint)get_local_id(0);
  const IDX i = (IDX)group * (2u * WG) + tid;
  sdata[tid] = OP(LOAD_OR_IDENTITY(i), LOAD_OR_IDENTITY(i + WG));
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG / 2u; s > 0u; s >>= 1) {
    if (tid < s) sdata[tid] = OP(sdata[tid], sdata[tid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0u) dst[out_offset + group] = sdata[0];
}
