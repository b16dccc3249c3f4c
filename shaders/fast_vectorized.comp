#version 450
// fast/vectorized: 128-bit loads, grid-stride, subgroupAdd/Min/Max and a workgroup fold; the
// host runs it twice (input -> one partial per workgroup -> one value), the best two-pass form.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_control_flow_attributes : require
#include "common.glsl"

T subgroup_reduce(T v) { return SUBGROUP_OP(v); }

#include "subgroup_block.glsl"
#include "vector_fold.glsl"

void main() {
  const uint threads = pc.groups * WG;
  const uint gid = gl_WorkGroupID.x * WG + gl_LocalInvocationID.x;
  const T v = workgroup_reduce(vector_fold(gid, threads));
  if (is_workgroup_leader()) dst_set(pc.out_offset + gl_WorkGroupID.x, v);
}
