// subgroup/shuffle-xor (the classic warp-shuffle __shfl_xor_sync): a butterfly of xor shuffles,
// every lane ends with the sub-group's value; sub-group totals through local memory, sub-group 0
// finishes. Built for SG > 1 only (the host refuses SG == 1), correct for any SG.
T warp_reduce(T v) {
  for (uint m = SG / 2u; m > 0u; m >>= 1) {
    const T o = sg_shuffle_xor(v, m);  // not inside OP: min/max would branch around the shuffle
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
