#version 450
// The tiled scans' down-sweep between levels (CUDA's uniform_add): tile t >= 1 of the
// destination (pc.dst) gets prefix[t] (pc.aux), the exclusive scan of the tile totals, combined in
// front of each element. Tile 0's prefix is the identity, so workgroup g handles tile g + 1 (the
// host dispatches tiles - 1). The tile is pc.param elements, covered by WG invocations in strides.
#include "scan_common.glsl"

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const uint t = group + 1;
  const IDX base = IDX(t) * pc.param;  // element indices may pass 2^32
  const T p = aux_at(pc.aux_offset + t);
  for (uint e = gl_LocalInvocationID.x; e < pc.param; e += WG) {
    const IDX i = base + e;
    if (i < PC_N) {
      DST(pc.out_offset + i) = OP(p, DST(pc.out_offset + i));
    }
  }
}
