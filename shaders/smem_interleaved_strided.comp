#version 450
// smem/interleaved-strided (Harris #2, HLSL step #2): the same pairs as #1, but invocation tid
// handles index 2*s*tid, so the active invocations are contiguous (no divergence, bank
// conflicts instead).
#include "common.glsl"

shared T sdata[WG];

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const uint tid = gl_LocalInvocationID.x;
  sdata[tid] = load_or_identity(IDX(group) * WG + tid);
  barrier();
  for (uint s = 1; s < WG; s *= 2) {
    const uint index = 2 * s * tid;
    if (index < WG) sdata[index] = OP(sdata[index], sdata[index + s]);
    barrier();
  }
  if (tid == 0) dst_set(pc.out_offset + group, sdata[0]);
}
