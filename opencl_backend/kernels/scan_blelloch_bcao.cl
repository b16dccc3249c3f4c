// blelloch/bcao (shaders/scan_blelloch_bcao.comp, CUDA's scan_blelloch_bcao, GPU Gems 3
// 39.2.2-39.2.3): Blelloch's work-efficient scan with bank-conflict avoidance, tile = 2 * WG,
// two elements per work-item (the two halves of the tile: coalesced loads, conflict-free
// slots). The up-sweep leaves the tile's total at the root, which becomes the identity; the
// down-sweep turns the tree into the exclusive scan. Inclusive combines that with the element
// the work-item still holds.
#define TILE (2u * WG)

XR_KERNEL {
  XR_UNUSED_ARGS;
  __local T s[TILE + TILE / 32u];  // indexed through conflict_free
  const uint group = (uint)get_group_id(0);
  if (group >= groups) return;  // uniform in the work-group
  const uint tid = (uint)get_local_id(0);
  const IDX base = (IDX)group * TILE;  // element indices may pass 2^32
  const uint a = tid, b = tid + WG;
  const T xa = LOAD_OR_IDENTITY(base + a);
  const T xb = LOAD_OR_IDENTITY(base + b);
  s[conflict_free(a)] = xa;
  s[conflict_free(b)] = xb;

  uint offset = 1u;
#pragma unroll
  for (uint d = TILE / 2u; d > 0u; d /= 2u) {  // up-sweep (reduce)
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tid < d) {
      const uint left = conflict_free(offset * (2u * tid + 1u) - 1u);
      const uint right = conflict_free(offset * (2u * tid + 2u) - 1u);
      s[right] = OP(s[left], s[right]);
    }
    offset *= 2u;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tid == 0u) {
    const uint root = conflict_free(TILE - 1u);
    if (WRITES_TOTALS()) aux[aux_offset + group] = s[root];
    s[root] = IDENTITY;
  }
#pragma unroll
  for (uint d = 1u; d < TILE; d *= 2u) {  // down-sweep
    offset /= 2u;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tid < d) {
      const uint left = conflict_free(offset * (2u * tid + 1u) - 1u);
      const uint right = conflict_free(offset * (2u * tid + 2u) - 1u);
      const T t = s[left];
      const T r = s[right];
      s[left] = r;             // the left child inherits its parent's prefix
      s[right] = OP(r, t);     // the right one: that prefix, then the left subtree
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const T ea = s[conflict_free(a)], eb = s[conflict_free(b)];
  const bool exclusive = EXCLUSIVE_SCAN();
  if (base + a < (IDX)n) DST_STORE(dst, out_offset + base + a, exclusive ? ea : OP(ea, xa));
  if (base + b < (IDX)n) DST_STORE(dst, out_offset + base + b, exclusive ? eb : OP(eb, xb));
}
