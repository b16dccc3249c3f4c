#version 450
// The tiled scans' down-sweep between levels (CUDA's uniform_add): tile t >= 1 of binding 1 gets
// prefix[t], the exclusive scan of the tile totals, combined in front of each element. Tile 0's
// prefix is the identity, so workgroup g handles tile g + 1 (the host dispatches tiles - 1). The
// tile is pc.param elements, covered by WG invocations in strides.
#include "scan_common.glsl"

layout(set = 0, binding = 1) buffer Data { T data[]; };
layout(set = 0, binding = 2) readonly buffer Prefix { T prefix[]; };

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const uint t = group + 1;
  const uint base = t * pc.param;
  const T p = prefix[pc.aux_offset + t];
  for (uint e = gl_LocalInvocationID.x; e < pc.param; e += WG) {
    const uint i = base + e;
    if (i < pc.n) data[pc.out_offset + i] = OP(p, data[pc.out_offset + i]);
  }
}
