#version 450
// subgroup/arithmetic: the subgroup reduction as one instruction (subgroupAdd/Min/Max), the
// counterpart of CUDA's __reduce_*_sync.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "common.glsl"

T subgroup_reduce(T v) { return SUBGROUP_OP(v); }

#include "grid_stride.glsl"
#include "subgroup_block.glsl"

void main() {
  const T v = workgroup_reduce(grid_stride_fold(gl_WorkGroupID.x, gl_LocalInvocationID.x));
  if (is_workgroup_leader()) dst_set(pc.out_offset + gl_WorkGroupID.x, v);
}
