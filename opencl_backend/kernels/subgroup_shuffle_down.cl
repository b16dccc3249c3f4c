// subgroup/shuffle-down (the classic warp-shuffle warpReduce/blockReduce with __shfl_down_sync): a
// tree of shuffles down, lane 0 ends with the sub-group's value; sub-group totals through local
// memory, sub-group 0 finishes. Built for SG > 1 only (the host refuses SG == 1), correct for any
// SG. Lanes whose source lies past the sub-group get their own value, which never reaches lane 0.
T warp_reduce(T v) {
  for (uint d = SG / 2u; d > 0u; d >>= 1) {
    const T o = sg_shuffle_down(v, d);  // not inside OP: min/max would branch around the shuffle
    v = OP(v, o);
  }
  return v;
}

XR_KERNEL {
  XR_UNUSED_ARGS;
  __local T slots[WG];  // one per sub-group (WG of them when SG == 1)
  const uint group = (uint)get_group_id(0);
  const uint tid = (uint)get_local_id(0);
  // Grid-stride fold (shaders/grid_stride.glsl).
  T acc = IDENTITY;
  const IDX stride = (IDX)groups * (2u * WG);
  for (IDX i = (IDX)group * (2u * WG) + tid; i < (IDX)n; i += stride) {
    acc = OP(acc, LOAD(src, in_offset + i));
    if (i + WG < (IDX)n) acc = OP(acc, LOAD(src, in_offset + i + WG));
  }
  acc = warp_reduce(acc);
  if (sg_lane() == 0u) slots[sg_id()] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (sg_id() == 0u) {
    T w = IDENTITY;
    for (uint s = sg_lane(); s < WG / SG; s += SG) w = OP(w, slots[s]);
    w = warp_reduce(w);
    if (sg_lane() == 0u) dst[out_offset + group] = w;
  }
}
