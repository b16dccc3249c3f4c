#version 450
// The tiled scans' down-sweep between levels (CUDA's uniform_add): tile t of the destination
// (pc.dst) gets prefix[t] (pc.aux), the exclusive scan of the tile totals, combined in front of
// each element. The tile is pc.param elements, covered by WG invocations in strides.
//  - In place (scratch levels, and outputs of 32- and 64-bit types): tile 0's prefix is the
//    identity, so workgroup g handles tile g + 1 (the host dispatches tiles - 1).
//  - kFromWide (f16/bf16 outputs): the tile pass left its float results in aux from
//    pc.in_offset; every tile, tile 0 too, is combined there and rounded once into the output.
//    Adding the prefix to an output already rounded would round twice, at the tile-local
//    magnitude.
#include "scan_common.glsl"

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const bool from_wide = (pc.flags & kFromWide) != 0u;
  const uint t = from_wide ? group : group + 1;
  const IDX base = IDX(t) * pc.param;  // element indices may pass 2^32
  const T p = aux_at(pc.aux_offset + t);
  for (uint e = gl_LocalInvocationID.x; e < pc.param; e += WG) {
    const IDX i = base + e;
    if (i < PC_N) {
      const T x = from_wide ? aux_at(pc.in_offset + i) : dst_get(pc.out_offset + i);
      dst_set(pc.out_offset + i, OP(p, x));
    }
  }
}
