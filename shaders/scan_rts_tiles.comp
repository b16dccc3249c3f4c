#version 450
// fast/reduce-then-scan, pass 3 (CUDA's scan_rts_tiles): workgroup b rescans its chunk
// [b * pc.param, (b + 1) * pc.param) tile by tile, starting from the chunk's prefix (pc.aux at
// pc.aux_offset + b with kHasPrefix; the identity when one workgroup covers n and passes 1 and 2
// were skipped).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_EXT_control_flow_attributes : require
#include "scan_common.glsl"

#include "scan_vector_tile.glsl"

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const IDX begin = IDX(group) * pc.param;
  const IDX end = min(begin + pc.param, PC_N);
  T running = (pc.flags & kHasPrefix) != 0u ? aux_at(pc.aux_offset + group) : T(IDENTITY);
  for (IDX base = begin; base < end; base += tile_elements()) {  // uniform: barriers inside
    tile_load(base, end);
    tile_scan();
    tile_store(base, end, running, exclusive_scan());
    running = OP(running, aggregate);
  }
}
