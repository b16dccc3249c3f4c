#version 450
// subgroup/shuffle-down (the classic warp-shuffle warpReduce/blockReduce with __shfl_down_sync): a
// tree of subgroupShuffleDown steps; lane 0 ends with the subgroup's value. Lanes whose source lies
// past the subgroup read an undefined value, which never reaches lane 0.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#include "common.glsl"

T subgroup_reduce(T v) {
  for (uint offset = gl_SubgroupSize / 2; offset > 0; offset >>= 1)
    v = OP(v, subgroupShuffleDown(v, offset));
  return v;
}

#include "grid_stride.glsl"
#include "subgroup_block.glsl"

void main() {
  const T v = workgroup_reduce(grid_stride_fold(gl_WorkGroupID.x, gl_LocalInvocationID.x));
  if (is_workgroup_leader()) dst_set(pc.out_offset + gl_WorkGroupID.x, v);
}
