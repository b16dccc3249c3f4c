#version 450
// smem/complete-unroll (Harris #6, classic CompleteUnroll<iBlockSize>): #5 with every step
// unrolled for the workgroup size given as a specialization constant.
#extension GL_KHR_shader_subgroup_basic : require
#include "common.glsl"

shared T sdata[WG];
#include "smem_unrolled.glsl"

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const uint tid = gl_LocalInvocationID.x;
  const IDX i = IDX(group) * (2 * WG) + tid;
  sdata[tid] = OP(load_or_identity(i), load_or_identity(i + WG));
  barrier();
  fold_shared_unrolled(tid);
  if (gl_SubgroupID == 0 && gl_SubgroupInvocationID == 0) dst_set(pc.out_offset + group, sdata[0]);
}
