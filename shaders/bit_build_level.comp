#version 450
// bit/one-layer build, one level above the workgroup per dispatch (CUDA's gen_bit_one_layer): at
// level idx = pc.param (a power of two), every 1-based position i + 1 that is a multiple of idx
// absorbs the node idx/2 to its left. Nodes written at a level are never read at that level
// (p - idx/2 is an odd multiple of idx/2), and the dispatch boundary orders the levels, so the
// tree needs no coherent here.
#include "scan_common.glsl"

layout(set = 0, binding = 2) buffer Tree { T tree[]; };

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const uint i = group * WG + gl_LocalInvocationID.x;
  const uint idx = pc.param;
  if (i < pc.n && ((i + 1) & (idx - 1)) == 0) {
    const uint node = pc.aux_offset + i;
    tree[node] = OP(tree[node - idx / 2], tree[node]);
  }
}
