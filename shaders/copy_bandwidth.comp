#version 450
// The copy probe behind Backend::measure_copy_bandwidth_gbps: 128-bit loads and stores over a
// grid-stride loop, UNROLL loads in flight per invocation before their stores. A shader, like
// the read probe and like the copy kernel behind cudaMemcpy's device-to-device path, because
// vkCmdCopyBuffer may go through a DMA engine, far slower than cudaMemcpyAsync's copy kernel
// (docs/results/H200/tuning-notes.md), which is not what a scan shader competes with.
// Operands (params.glsl): PC_N 16-byte vectors from pc.src to pc.dst.
#extension GL_EXT_control_flow_attributes : require
#include "params.glsl"

layout(constant_id = 0) const uint WG = 256;
layout(constant_id = 1) const uint UNROLL = 4;
layout(local_size_x_id = 0) in;

// By binding or by address, as the variants it is the peak of (common.glsl).
#ifdef XR_ADDRESS
layout(buffer_reference, std430, buffer_reference_align = 16) readonly restrict buffer SrcVec {
  uvec4 v;
};
layout(buffer_reference, std430, buffer_reference_align = 16) writeonly restrict buffer DstVec {
  uvec4 v;
};
uvec4 load(IDX i) { return SrcVec(pc.src + i * 16).v; }
void store(IDX i, uvec4 v) { DstVec(pc.dst + i * 16).v = v; }
#else
layout(set = 0, binding = 0) readonly restrict buffer Input { uvec4 src_data[]; };
layout(set = 0, binding = 1) writeonly restrict buffer Output { uvec4 dst_data[]; };
uvec4 load(IDX i) { return src_data[uint(i)]; }
void store(IDX i, uvec4 v) { dst_data[uint(i)] = v; }
#endif

void main() {
  const uint threads = pc.groups * WG;
  // Hoisted bound of the unrolled loop (i < it: all UNROLL loads in range).
  const IDX span = IDX(UNROLL - 1) * threads;
  const IDX unrolled_end = PC_N > span ? PC_N - span : 0;
  IDX i = gl_WorkGroupID.x * WG + gl_LocalInvocationID.x;
  for (; i < unrolled_end; i += UNROLL * threads) {
    uvec4 v[UNROLL];
    [[unroll]] for (uint u = 0; u < UNROLL; ++u) v[u] = load(i + u * threads);
    [[unroll]] for (uint u = 0; u < UNROLL; ++u) store(i + u * threads, v[u]);
  }
  for (; i < PC_N; i += threads) store(i, load(i));
}
