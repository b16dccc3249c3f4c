// One tile of the subgroup scans, the counterpart of CUDA's scan_warp_shuffle_up for any subgroup
// size: WG invocations x ITEMS consecutive items. The tile is staged through padded shared memory
// so global loads and stores stay coalesced while each invocation scans its ITEMS items serially
// in registers; the invocation totals are scanned per subgroup, the subgroup totals folded in a
// fixed order (any number of subgroups), and each invocation's items combined with the prefix of
// the subgroups and lanes before it.
// Items are assigned by rank (subgroup, then lane), not by local id: nothing assumes how local
// ids map to subgroups.
// Requires: GL_KHR_shader_subgroup_basic, GL_EXT_control_flow_attributes, full subgroups (the
// host asks), WG a multiple of the subgroup size; tile totals at pc.aux; the including shader
// defines
//   T subgroup_inclusive(T v): the inclusive scan of v over the subgroup;
//   T subgroup_exclusive(T v, T incl): the exclusive one, incl = subgroup_inclusive(v).

layout(constant_id = 1) const uint ITEMS = 8;

const uint TILE = WG * ITEMS;
shared T s[TILE + TILE / 32];  // indexed through conflict_free
shared T subgroup_totals[WG];  // one slot per subgroup; WG slots cover subgroups of any size

void scan_tile(uint group) {
  const uint tid = gl_LocalInvocationID.x;
  const uint rank = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  const IDX base = IDX(group) * TILE;  // element indices may pass 2^32

  [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
    const IDX i = base + k * WG + tid;
    s[conflict_free(k * WG + tid)] = i < PC_N ? src_at(pc.in_offset + i) : T(IDENTITY);
  }
  barrier();

  T x[ITEMS];  // this invocation's items, scanned serially (inclusive)
  [[unroll]] for (uint k = 0; k < ITEMS; ++k) x[k] = s[conflict_free(rank * ITEMS + k)];
  [[unroll]] for (uint k = 1; k < ITEMS; ++k) x[k] = OP(x[k - 1], x[k]);

  const T lanes_incl = subgroup_inclusive(x[ITEMS - 1]);
  const T lanes_before = subgroup_exclusive(x[ITEMS - 1], lanes_incl);
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1) subgroup_totals[gl_SubgroupID] = lanes_incl;
  barrier();  // also: every invocation has read its items, so `s` may be overwritten below
  T before = T(IDENTITY), all = T(IDENTITY);
  for (uint w = 0; w < gl_NumSubgroups; ++w) {
    if (w == gl_SubgroupID) before = all;
    all = OP(all, subgroup_totals[w]);
  }
  const T prefix = OP(before, lanes_before);  // everything before x[0] in the tile
  if (writes_totals() && tid == 0) aux_set(pc.aux_offset + group, all);

  // Exclusive item k is inclusive item k - 1 (prefix for k = 0), carried in `left` so that no
  // index goes below 0 before the loop is unrolled.
  const bool exclusive = exclusive_scan();
  T left = prefix;
  [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
    const T incl = OP(prefix, x[k]);
    s[conflict_free(rank * ITEMS + k)] = exclusive ? left : incl;
    left = incl;
  }
  barrier();
  [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
    const IDX i = base + k * WG + tid;
    if (i < PC_N) dst_set(pc.out_offset + i, s[conflict_free(k * WG + tid)]);
  }
}
