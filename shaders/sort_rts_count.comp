#version 450
// radix/reduce-then-scan's upsweep: workgroup b counts the digits of its chunk (pc.tiles tiles of
// WG x ITEMS keys from tile b * pc.tiles) into row b of the digit-major table at pc.bins_in (digit
// d's count at count d * pc.blocks + b). A counted call's chunks are its count's tiles shared
// over the plan's blocks.
#include "sort_common.glsl"

layout(constant_id = 1) const uint ITEMS = 16;
shared uint counts[kRadix];

void main() {
  for (uint d = gl_LocalInvocationIndex; d < kRadix; d += WG) counts[d] = 0u;
  barrier();
  const uint b = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (b >= pc.blocks) return;
  const uint tile = WG * ITEMS;
  const IDX n = sort_n();
  const uint per_block = pc.counted != 0u ? chunk_tiles(n, tile) : pc.tiles;
  const IDX first = min(IDX(b) * per_block * tile, n);
  const IDX last = first + min(n - first, IDX(per_block * tile));  // no wrap past IDX
  for (IDX i = first + gl_LocalInvocationIndex; i < last; i += WG)
    atomicAdd(counts[digit_at(sort_bits(key_bits(i)), pc.shift, pc.width)], 1u);
  barrier();
  for (uint d = gl_LocalInvocationIndex; d < kRadix; d += WG)
    store_count(pc.bins_in + (d * pc.blocks + b) * kCountWords, counts[d]);
}
