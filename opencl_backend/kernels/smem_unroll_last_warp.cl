// smem/unroll-last-warp (Harris #5, shaders/smem_unroll_subgroup.comp): first-add loading,
// work-group barriers while more than 2*SG slots hold data, then sub-group 0 folds the last 2*SG
// with sg_barrier() between steps (race-free __syncwarp shape). SG == 1: barriers all the way.
XR_KERNEL {
  XR_UNUSED_ARGS;
  __local T sdata[WG];
  const uint group = (uint)get_group_id(0);
  const uint tid = (uint)get_local_id(0);
  const IDX i = (IDX)group * (2u * WG) + tid;
  sdata[tid] = OP(LOAD_OR_IDENTITY(i), LOAD_OR_IDENTITY(i + WG));
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG / 2u; s > SG; s >>= 1) {
    if (tid < s) sdata[tid] = OP(sdata[tid], sdata[tid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  // sdata[0 .. min(2 SG, WG)) holds the partials; sub-group 0 folds them by its own lane ids.
  if (sg_id() == 0u) {
    const uint lane = sg_lane();
    for (uint s = min(SG, WG / 2u); s > 0u; s >>= 1) {
      if (lane < s) sdata[lane] = OP(sdata[lane], sdata[lane + s]);
      sg_barrier();
    }
    if (lane == 0u) dst[out_offset + group] = sdata[0];
  }
}
