#version 450
// radix/onesweep with the count on the device: the digit passes' grid (a VkDispatchIndirectCommand
// at word pc.grid) for the count's tiles of pc.tiles keys, in rows of at most 65535 workgroups
// (every device's least maxComputeWorkGroupCount), the workgroups past the tiles returning.
#define K32
#include "sort_common.glsl"

void main() {
  if (gl_LocalInvocationIndex != 0u) return;
  const uint tiles = uint((sort_n() + pc.tiles - 1u) / pc.tiles);
  const uint x = min(tiles, 65535u);
  words[pc.grid] = x;
  words[pc.grid + 1u] = x == 0u ? 1u : (tiles + x - 1u) / x;
  words[pc.grid + 2u] = 1u;
}
