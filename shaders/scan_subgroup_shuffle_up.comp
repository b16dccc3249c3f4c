#version 450
// subgroup/shuffle-up (CUDA's scan_warp_shuffle_up, warp/shuffle-up): the tile of
// scan_subgroup_tile.glsl with a Kogge-Stone subgroup scan by subgroupShuffleUp, as CUDA's
// __shfl_up_sync loop, for any subgroup size.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_EXT_control_flow_attributes : require
#include "scan_common.glsl"

T subgroup_inclusive(T v) {
  for (uint off = 1; off < gl_SubgroupSize; off *= 2) {
    const T left = subgroupShuffleUp(v, off);
    if (gl_SubgroupInvocationID >= off) v = OP(left, v);
  }
  return v;
}

// The left lane's inclusive value; lane 0 has nothing before it.
T subgroup_exclusive(T v, T incl) {
  const T left = subgroupShuffleUp(incl, 1);
  return gl_SubgroupInvocationID == 0 ? T(IDENTITY) : left;
}

#include "scan_subgroup_tile.glsl"

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  scan_tile(group);
}
