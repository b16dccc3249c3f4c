#version 450
// subgroup/shuffle-xor (the classic warp-shuffle __shfl_xor_sync): a butterfly of
// subgroupShuffleXor steps; every lane ends with the subgroup's value (a+b == b+a, so they agree
// bitwise for floats too).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#include "common.glsl"

T subgroup_reduce(T v) {
  for (uint mask = gl_SubgroupSize / 2; mask > 0; mask >>= 1)
    v = OP(v, subgroupShuffleXor(v, mask));
  return v;
}

#include "grid_stride.glsl"
#include "subgroup_block.glsl"

void main() {
  const T v = workgroup_reduce(grid_stride_fold(gl_WorkGroupID.x, gl_LocalInvocationID.x));
  if (is_workgroup_leader()) dst_set(pc.out_offset + gl_WorkGroupID.x, v);
}
