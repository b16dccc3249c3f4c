#version 450
// smem/sequential (Harris #3, HLSL step #3): sequential addressing, the active half folds the
// upper half onto itself (conflict-free, half the invocations idle from the first step).
#extension GL_EXT_control_flow_attributes : require
#include "common.glsl"

shared T sdata[WG];

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const uint tid = gl_LocalInvocationID.x;
  sdata[tid] = load_or_identity(IDX(group) * WG + tid);
  barrier();
  [[unroll]] for (uint s = WG / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = OP(sdata[tid], sdata[tid + s]);
    barrier();
  }
  if (tid == 0) dst_set(pc.out_offset + group, sdata[0]);
}
