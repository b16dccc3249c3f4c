#version 450
// smem/multi-element (Harris #7): grid-stride loop over many elements per invocation, then the
// completely unrolled fold of #6.
#extension GL_KHR_shader_subgroup_basic : require
#include "common.glsl"

shared T sdata[WG];
#include "grid_stride.glsl"
#include "smem_unrolled.glsl"

void main() {
  const uint group = gl_WorkGroupID.x;
  const uint tid = gl_LocalInvocationID.x;
  sdata[tid] = grid_stride_fold(group, tid);
  barrier();
  fold_shared_unrolled(tid);
  if (gl_SubgroupID == 0 && gl_SubgroupInvocationID == 0) dst_set(pc.out_offset + group, sdata[0]);
}
