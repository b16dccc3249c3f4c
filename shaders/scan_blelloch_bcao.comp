#version 450
// blelloch/bcao (CUDA's scan_blelloch_bcao, GPU Gems 3 39.2.2-39.2.3): Blelloch's work-efficient
// scan with bank-conflict avoidance, tile = 2 * WG, two elements per invocation (the two halves
// of the tile: coalesced loads, conflict-free slots). The up-sweep leaves the tile's total at the
// root, which becomes the identity; the down-sweep turns the tree into the exclusive scan.
// Inclusive combines that with the element the invocation still holds.
#extension GL_EXT_control_flow_attributes : require
#include "scan_common.glsl"

const uint TILE = 2 * WG;
shared T s[TILE + TILE / 32];  // indexed through conflict_free

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const uint tid = gl_LocalInvocationID.x;
  const IDX base = IDX(group) * TILE;  // element indices may pass 2^32
  const uint a = tid, b = tid + WG;
  const T xa = base + a < PC_N ? src_at(pc.in_offset + base + a) : T(IDENTITY);
  const T xb = base + b < PC_N ? src_at(pc.in_offset + base + b) : T(IDENTITY);
  s[conflict_free(a)] = xa;
  s[conflict_free(b)] = xb;

  uint offset = 1;
  [[unroll]] for (uint d = TILE / 2; d > 0; d /= 2) {  // up-sweep (reduce)
    barrier();
    if (tid < d) {
      const uint left = conflict_free(offset * (2 * tid + 1) - 1);
      const uint right = conflict_free(offset * (2 * tid + 2) - 1);
      s[right] = OP(s[left], s[right]);
    }
    offset *= 2;
  }
  barrier();
  if (tid == 0) {
    const uint root = conflict_free(TILE - 1);
    if (writes_totals()) aux_set(pc.aux_offset + group, s[root]);
    s[root] = T(IDENTITY);
  }
  [[unroll]] for (uint d = 1; d < TILE; d *= 2) {  // down-sweep
    offset /= 2;
    barrier();
    if (tid < d) {
      const uint left = conflict_free(offset * (2 * tid + 1) - 1);
      const uint right = conflict_free(offset * (2 * tid + 2) - 1);
      const T t = s[left];
      s[left] = s[right];          // the left child inherits its parent's prefix
      s[right] = OP(s[right], t);  // the right one: that prefix, then the left subtree
    }
  }
  barrier();
  const T ea = s[conflict_free(a)], eb = s[conflict_free(b)];
  const bool exclusive = exclusive_scan();
  if (base + a < PC_N) dst_set(pc.out_offset + base + a, exclusive ? ea : OP(ea, xa));
  if (base + b < PC_N) dst_set(pc.out_offset + base + b, exclusive ? eb : OP(eb, xb));
}
