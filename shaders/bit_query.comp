#version 450
// bit/one-layer and bit/between-blocks query (CUDA's calc_sum_using_bit, the original's first
// form): output i is the Fenwick prefix of position i + 1 (inclusive) or i (exclusive), accumulated
// from the right end leftwards (node op acc) in the output element itself. The output is volatile,
// as the original's pointer was: one real global read-modify-write per tree node, which is what
// this variant measures (glslang decorates it Coherent as well).
#include "scan_common.glsl"

// The output element at pc.dst, volatile (see above).
// f16/bf16: the output element cannot hold the float accumulator without rounding at every
// node, so those accumulate in a register and store once.
#ifdef XR_ADDRESS
layout(buffer_reference, std430, buffer_reference_align = E_BYTES) volatile buffer Out { T v; };
#define OUT(i) Out(pc.dst + IDX(i) * E_BYTES).v
#else
layout(set = 0, binding = 1) volatile buffer Out { T out_data[]; };
#define OUT(i) out_data[uint(i)]
#endif

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const IDX i = IDX(group) * WG + gl_LocalInvocationID.x;
  if (i >= PC_N) return;  // no barrier below
  const IDX o = pc.out_offset + i;
#ifdef ACC_F32
  T acc = T(IDENTITY);
  for (IDX j = exclusive_scan() ? i : i + 1; j > 0; j -= j & (~j + 1u))
    acc = OP(aux_at(pc.aux_offset + j - 1), acc);
  dst_set(o, acc);
#else
  OUT(o) = T(IDENTITY);
  for (IDX j = exclusive_scan() ? i : i + 1; j > 0; j -= j & (~j + 1u))
    OUT(o) = OP(aux_at(pc.aux_offset + j - 1), OUT(o));
#endif
}
