#version 450
// bit/one-layer and bit/between-blocks query (CUDA's calc_sum_using_bit, the seed's first form):
// output i is the Fenwick prefix of position i + 1 (inclusive) or i (exclusive), accumulated
// from the right end leftwards (node op acc) in the output element itself. The output is
// volatile, as the seed's pointer was: one real global read-modify-write per tree node, which is
// what this variant measures (glslang decorates it Coherent as well).
#include "scan_common.glsl"

layout(set = 0, binding = 1) volatile buffer Dst { T dst[]; };
layout(set = 0, binding = 2) readonly buffer Tree { T tree[]; };

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const uint i = group * WG + gl_LocalInvocationID.x;
  if (i >= pc.n) return;  // no barrier below
  const uint o = pc.out_offset + i;
  dst[o] = T(IDENTITY);
  for (uint j = exclusive_scan() ? i : i + 1; j > 0; j -= j & (~j + 1u))
    dst[o] = OP(tree[pc.aux_offset + j - 1], dst[o]);
}
