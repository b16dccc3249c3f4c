#version 450
// fast/reduce-then-scan, pass 1 (CUDA's scan_rts_reduce): workgroup b folds its contiguous chunk
// [b * pc.param, (b + 1) * pc.param) of the input into partials[pc.aux_offset + b], with UNROLL
// 16-byte loads in flight per invocation. The chunk is a multiple of the tile, so every chunk
// starts 16-byte aligned.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_control_flow_attributes : require
#include "scan_common.glsl"

layout(constant_id = 1) const uint UNROLL = 4;

layout(set = 0, binding = 0) readonly buffer Src { T src[]; };
layout(set = 0, binding = 0) readonly buffer Src4 { T4 src4[]; };
layout(set = 0, binding = 2) writeonly buffer Partials { T partials[]; };

T subgroup_reduce(T v) { return SUBGROUP_OP(v); }

#include "subgroup_block.glsl"

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const uint tid = gl_LocalInvocationID.x;
  const uint begin = group * pc.param;
  const uint end = min(begin + pc.param, pc.n);
  const uint len4 = (end - begin) / 4;
  const uint base4 = (pc.in_offset + begin) / 4;
  T4 acc = T4(IDENTITY);
  uint i = tid;
  for (; i + (UNROLL - 1) * WG < len4; i += UNROLL * WG) {
    [[unroll]] for (uint u = 0; u < UNROLL; ++u) acc = OP(acc, src4[base4 + i + u * WG]);
  }
  for (; i < len4; i += WG) acc = OP(acc, src4[base4 + i]);
  T v = OP(OP(acc.x, acc.y), OP(acc.z, acc.w));
  const uint tail = begin + len4 * 4 + tid;  // the last chunk's n % 4 elements
  if (tail < end) v = OP(v, src[pc.in_offset + tail]);
  v = workgroup_reduce(v);
  if (is_workgroup_leader()) partials[pc.aux_offset + group] = v;
}
