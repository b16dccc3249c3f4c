#version 450
// The streaming-read probe behind Backend::measure_read_bandwidth_gbps: 128-bit loads over a
// grid-stride loop, folded with XOR so no load can be dropped; the fold is written only when it
// equals an arbitrary constant, so the probe writes (almost) nothing.
// Operands (params.glsl): PC_N 16-byte vectors from pc.src; the sink word at pc.out_offset of
// pc.dst.
#extension GL_EXT_control_flow_attributes : require
#include "params.glsl"

layout(constant_id = 0) const uint WG = 256;
layout(constant_id = 1) const uint UNROLL = 4;
layout(local_size_x_id = 0) in;

// By binding or by address, as the variants it is the peak of (common.glsl).
#ifdef XR_ADDRESS
layout(buffer_reference, std430, buffer_reference_align = 16) readonly restrict buffer Vec {
  uvec4 v;
};
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly restrict buffer Sink {
  uint v;
};
uvec4 load(IDX i) { return Vec(pc.src + i * 16).v; }
#define SINK Sink(pc.dst + IDX(pc.out_offset) * 4).v
#else
layout(set = 0, binding = 0) readonly restrict buffer Input { uvec4 data[]; };
layout(set = 0, binding = 1) writeonly restrict buffer SinkBuf { uint sink[]; };
uvec4 load(IDX i) { return data[uint(i)]; }
#define SINK sink[pc.out_offset]
#endif

void main() {
  const uint threads = pc.groups * WG;
  // Hoisted bound of the unrolled loop (i < it: all UNROLL loads in range).
  const IDX span = IDX(UNROLL - 1) * threads;
  const IDX unrolled_end = PC_N > span ? PC_N - span : 0;
  IDX i = gl_WorkGroupID.x * WG + gl_LocalInvocationID.x;
  uvec4 acc = uvec4(0);
  for (; i < unrolled_end; i += UNROLL * threads) {
    [[unroll]] for (uint u = 0; u < UNROLL; ++u) acc ^= load(i + u * threads);
  }
  for (; i < PC_N; i += threads) acc ^= load(i);
  const uint r = acc.x ^ acc.y ^ acc.z ^ acc.w;
  if (r == 0x9e3779b9u) SINK = r;
}
