#version 450
// smem/first-add (Harris #4, classic Unrolling2): each invocation adds two elements, WG apart,
// while loading, so a workgroup covers 2*WG elements and no invocation idles in the first step.
#extension GL_EXT_control_flow_attributes : require
#include "common.glsl"

shared T sdata[WG];

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const uint tid = gl_LocalInvocationID.x;
  const IDX i = IDX(group) * (2 * WG) + tid;
  sdata[tid] = OP(load_or_identity(i), load_or_identity(i + WG));
  barrier();
  [[unroll]] for (uint s = WG / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = OP(sdata[tid], sdata[tid + s]);
    barrier();
  }
  if (tid == 0) dst_set(pc.out_offset + group, sdata[0]);
}
