#version 450
// subgroup/arithmetic: the tile of scan_subgroup_tile.glsl (CUDA's scan_warp_shuffle_up) with the
// subgroup scans of GL_KHR_shader_subgroup_arithmetic instead of a shuffle loop.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_control_flow_attributes : require
#include "scan_common.glsl"

T subgroup_inclusive(T v) { return SUBGROUP_INCLUSIVE_OP(v); }
T subgroup_exclusive(T v, T incl) { return SUBGROUP_EXCLUSIVE_OP(v); }

#include "scan_subgroup_tile.glsl"

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  scan_tile(group);
}
