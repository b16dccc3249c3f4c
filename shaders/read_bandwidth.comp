#version 450
// The streaming-read probe behind Backend::measure_read_bandwidth_gbps: 128-bit loads over a
// grid-stride loop, folded with XOR so no load can be dropped; the fold is written only when it
// equals an arbitrary constant, so the probe writes (almost) nothing.
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

layout(set = 0, binding = 0) readonly buffer Input { uvec4 data[]; };
layout(set = 0, binding = 1) writeonly buffer Sink { uint sink[]; };

void main() {
  const uint threads = pc.groups * WG;
  uint i = gl_WorkGroupID.x * WG + gl_LocalInvocationID.x;
  uvec4 acc = uvec4(0);
  for (; i + (UNROLL - 1) * threads < pc.n; i += UNROLL * threads) {
    [[unroll]] for (uint u = 0; u < UNROLL; ++u) acc ^= data[i + u * threads];
  }
  for (; i < pc.n; i += threads) acc ^= data[i];
  const uint r = acc.x ^ acc.y ^ acc.z ^ acc.w;
  if (r == 0x9e3779b9u) sink[pc.out_offset] = r;
}
