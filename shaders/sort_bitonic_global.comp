#version 450
// bitonic/smem: one step of stage pc.stage at stride pc.stride (>= the tile) over the padded
// items, one pair an invocation.
#define SORT_ITEMS
#include "sort_common.glsl"
#include "sort_bitonic.glsl"

void main() {
  const uint q = workgroup_index() * WG + gl_LocalInvocationIndex;
  if (q >= pc.padded / 2u) return;
  const uint i = pair_first(q, pc.stride);
  const ITEM a = items[i], b = items[i + pc.stride];
  if (item_less(b, a) == ascending_at(i, pc.stage)) {  // out of the run's order: swap
    items[i] = b;
    items[i + pc.stride] = a;
  }
}
