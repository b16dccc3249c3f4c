#version 450
// fast/reduce-then-scan, pass 1 (CUDA's scan_rts_reduce): workgroup b folds its contiguous chunk
// [b * pc.param, (b + 1) * pc.param) of the input into partial pc.aux_offset + b at pc.aux, with
// UNROLL 16-byte loads in flight per invocation. The chunk is a multiple of the tile, so every
// chunk starts 16-byte aligned; its address is computed once in 64 bits, vector offsets within
// it are 32-bit (a chunk holds fewer than 2^32 elements).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_control_flow_attributes : require
#include "scan_common.glsl"

layout(constant_id = 1) const uint UNROLL = 4;

T subgroup_reduce(T v) { return SUBGROUP_OP(v); }

#include "subgroup_block.glsl"

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const uint tid = gl_LocalInvocationID.x;
  const IDX begin = IDX(group) * pc.param;
  const IDX end = min(begin + pc.param, PC_N);
  const uint len = uint(end - begin);  // at most pc.param
  const uint len4 = len / 4;
  const IDX at = src_base(pc.in_offset + begin);
  T4 acc = T4(IDENTITY);
  uint i = tid;
  for (; i + (UNROLL - 1) * WG < len4; i += UNROLL * WG) {
    [[unroll]] for (uint u = 0; u < UNROLL; ++u) acc = OP(acc, load_src4(at, i + u * WG));
  }
  for (; i < len4; i += WG) acc = OP(acc, load_src4(at, i));
  T v = OP(OP(acc.x, acc.y), OP(acc.z, acc.w));
  const uint tail = len4 * 4 + tid;  // the last chunk's n % 4 elements
  if (tail < len) v = OP(v, load_src(at, tail));
  v = workgroup_reduce(v);
  if (is_workgroup_leader()) aux_set(pc.aux_offset + group, v);
}
