#version 450
// bitonic/smem's last pass: output i takes the key (and the value) at the input position of the
// i-th sorted item.
#define SORT_ITEMS
#include "sort_common.glsl"
#include "sort_bitonic.glsl"

void main() {
  const uint i = workgroup_index() * WG + gl_LocalInvocationIndex;
  if (i >= uint(sort_n())) return;
  const uint from = position_of(items[i]);
  store_key(i, load_key(from));
#ifdef PAIRS
  const VALUE v = load_value(from);
  [[unroll]] for (uint w = 0; w < kValueWords; ++w) store_value_word(i, w, value_word(v, w));
#endif
}
