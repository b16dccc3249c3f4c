#version 450
// bit/one-layer build, one level above the workgroup per dispatch (CUDA's gen_bit_one_layer): at
// level idx = 2^pc.param, every 1-based position i + 1 that is a multiple of idx absorbs the node
// idx/2 to its left. The level comes as its exponent: pc.param is 32-bit, and levels reach 2^32
// once n does. Nodes written at a level are never read at that level (p - idx/2 is an odd
// multiple of idx/2), and the dispatch boundary orders the levels, so the tree needs no coherent
// here.
#include "scan_common.glsl"

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const IDX i = IDX(group) * WG + gl_LocalInvocationID.x;
  const IDX idx = IDX(1) << pc.param;
  if (i < PC_N && ((i + 1) & (idx - 1)) == 0) {
    const IDX node = pc.aux_offset + i;
    AUX(node) = OP(AUX(node - idx / 2), AUX(node));
  }
}
