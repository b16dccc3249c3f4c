// subgroup/shuffle-up (the port of shaders/scan_subgroup_shuffle_up.comp with
// scan_subgroup_tile.glsl; CUDA's scan_warp_shuffle_up): the register scan, WG work-items x
// UNROLL (ITEMS) consecutive items, a Kogge-Stone sub-group scan by sg_shuffle_up. The tile is
// staged through padded local memory so global loads and stores stay coalesced while each
// work-item scans its ITEMS items serially in registers; the work-item totals are scanned per
// sub-group, the sub-group totals folded in a fixed order, and each work-item's items combined
// with the prefix of the sub-groups and lanes before it. A tiled scan's level: with kWriteTotals
// work-item 0 writes the tile's total at aux_offset + group of aux (scan_uniform_add adds the
// tiles' prefixes back). The host runs it only where SG > 1 (sub-group shuffles); with SG == 1 it
// still compiles and scans correctly (the sub-group scan is the identity step and the sub-group
// totals go through wg_exclusive_scan).
#define ITEMS UNROLL
#define TILE (WG * ITEMS)

// The inclusive scan of v over the sub-group (Kogge-Stone, as CUDA's __shfl_up_sync loop).
T sg_shuffle_up_inclusive(T v) {
  const uint lane = sg_lane();
  for (uint off = 1u; off < SG; off <<= 1) {
    const T left = sg_shuffle_up(v, off);
    if (lane >= off) v = OP(left, v);
  }
  return v;
}

// The exclusive one: the left lane's inclusive value; lane 0 has nothing before it.
T sg_shuffle_up_exclusive(T incl) {
  const T left = sg_shuffle_up(incl, 1u);
  return sg_lane() == 0u ? IDENTITY : left;
}

XR_KERNEL {
  XR_UNUSED_ARGS;
  __local T s[TILE + TILE / 32u];  // indexed through conflict_free
#if SG > 1
  __local T sg_totals[WG / SG];
#else
  __local T sg_totals[2 * WG];  // wg_exclusive_scan's slots
#endif
  const uint group = (uint)get_group_id(0);
  if (group >= groups) return;  // uniform over the work-group
  const uint tid = (uint)get_local_id(0);
  const uint rank = tid;  // sub-groups are consecutive local ids (group.cl)
  const IDX base = (IDX)group * TILE;  // element indices may pass 2^32

#pragma unroll
  for (uint k = 0u; k < ITEMS; ++k) {
    const IDX i = base + k * WG + tid;
    s[conflict_free(k * WG + tid)] = LOAD_OR_IDENTITY(i);
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  T x[ITEMS];  // this work-item's items, scanned serially (inclusive)
#pragma unroll
  for (uint k = 0u; k < ITEMS; ++k) x[k] = s[conflict_free(rank * ITEMS + k)];
#pragma unroll
  for (uint k = 1u; k < ITEMS; ++k) x[k] = OP(x[k - 1u], x[k]);

#if SG > 1
  const T lanes_incl = sg_shuffle_up_inclusive(x[ITEMS - 1u]);
  const T lanes_before = sg_shuffle_up_exclusive(lanes_incl);
  if (sg_lane() == SG - 1u) sg_totals[sg_id()] = lanes_incl;
  barrier(CLK_LOCAL_MEM_FENCE);  // also: every work-item has read its items, `s` is free below
  T before = IDENTITY, all = IDENTITY;
  const uint me = sg_id();
  for (uint w = 0u; w < WG / SG; ++w) {
    if (w == me) before = all;
    all = OP(all, sg_totals[w]);
  }
  const T prefix = OP(before, lanes_before);  // everything before x[0] in the tile
#else
  T all;
  // Ends with a barrier: every work-item has read its items, `s` is free below.
  const T prefix = wg_exclusive_scan(x[ITEMS - 1u], sg_totals, &all);
#endif
  if (WRITES_TOTALS() && tid == 0u) aux[aux_offset + group] = all;

  // Exclusive item k is inclusive item k - 1 (prefix for k = 0), carried in `left`.
  const bool exclusive = EXCLUSIVE_SCAN();
  T left = prefix;
#pragma unroll
  for (uint k = 0u; k < ITEMS; ++k) {
    const T incl = OP(prefix, x[k]);
    s[conflict_free(rank * ITEMS + k)] = exclusive ? left : incl;
    left = incl;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (uint k = 0u; k < ITEMS; ++k) {
    const IDX i = base + k * WG + tid;
    if (i < (IDX)n) DST_STORE(dst, out_offset + i, s[conflict_free(k * WG + tid)]);
  }
}
