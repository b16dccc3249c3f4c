#version 450
// The copy probe behind Backend::measure_copy_bandwidth_gbps: 128-bit loads and stores over a
// grid-stride loop, UNROLL loads in flight per invocation before their stores. A shader, like
// the read probe and like the copy kernel behind cudaMemcpy's device-to-device path, because
// vkCmdCopyBuffer may go through a DMA engine (850 GB/s on an H200, against 4196 GB/s for
// cudaMemcpyAsync), which is not what a scan shader competes with.
#extension GL_EXT_control_flow_attributes : require

layout(constant_id = 0) const uint WG = 256;
layout(constant_id = 1) const uint UNROLL = 4;
layout(local_size_x_id = 0) in;

layout(push_constant) uniform Params {
  uint n;  // uvec4 elements
  uint in_offset;
  uint out_offset;
  uint groups;
}
pc;

layout(set = 0, binding = 0) readonly buffer Input { uvec4 src[]; };
layout(set = 0, binding = 1) writeonly buffer Output { uvec4 dst[]; };

void main() {
  const uint threads = pc.groups * WG;
  uint i = gl_WorkGroupID.x * WG + gl_LocalInvocationID.x;
  for (; i + (UNROLL - 1) * threads < pc.n; i += UNROLL * threads) {
    uvec4 v[UNROLL];
    [[unroll]] for (uint u = 0; u < UNROLL; ++u) v[u] = src[i + u * threads];
    [[unroll]] for (uint u = 0; u < UNROLL; ++u) dst[i + u * threads] = v[u];
  }
  for (; i < pc.n; i += threads) dst[i] = src[i];
}
