#version 450
// smem/interleaved-divergent (Harris #1, HLSL step #1): interleaved addressing with a modulo
// test, so the active invocations of every step are scattered across subgroups (divergent).
#include "common.glsl"

shared T sdata[WG];

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;  // whole workgroup leaves: no barrier is skipped by half of it
  const uint tid = gl_LocalInvocationID.x;
  sdata[tid] = load_or_identity(IDX(group) * WG + tid);
  barrier();
  for (uint s = 1; s < WG; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] = OP(sdata[tid], sdata[tid + s]);
    barrier();
  }
  if (tid == 0) dst_set(pc.out_offset + group, sdata[0]);
}
