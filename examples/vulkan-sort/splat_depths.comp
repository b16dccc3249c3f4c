#version 450
// One frame's depths, as a renderer's culling pass writes them: splat i sits at a fixed
// pseudo-random place in [-1, 1)^2 of the view plane's axes; its depth along the frame's view
// direction (dx, dz), seen from 0.25 behind the origin, is appended (the depth as the key, i as
// the value) where it is in front of the camera, and the visible splats are counted on the GPU.
// The host repeats the arithmetic exactly (`precise`: no fused multiply-add) to check the count.
layout(local_size_x = 256) in;
layout(push_constant) uniform Frame {
  float dx;
  float dz;
  uint splats;
}
frame;
layout(set = 0, binding = 0) buffer Count { uint visible; };
layout(set = 0, binding = 1) writeonly buffer Keys { float keys[]; };
layout(set = 0, binding = 2) writeonly buffer Values { uint values[]; };

// A 32-bit integer hash (lowbias32), the host's too.
uint hash(uint x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}
// 16 bits as a coordinate in [-1, 1), exactly.
float coordinate(uint bits) { return float(bits & 0xffffu) / 32768.0 - 1.0; }

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= frame.splats) return;
  const uint h = hash(i);
  precise float along_x = coordinate(h) * frame.dx;
  precise float along_z = coordinate(h >> 16) * frame.dz;
  precise float depth = along_x + along_z + 0.25;
  if (depth <= 0.0) return;
  const uint slot = atomicAdd(visible, 1u);
  keys[slot] = depth;
  values[slot] = i;
}
