#version 450
// radix/onesweep's first pass: one read of the keys counts the digits of every digit pass at
// once (8-bit digits from pc.begin to pc.end), into a workgroup's shared counters, then added to
// the histograms at pc.histograms (pass p's 256 counts from count p * 256). A workgroup counts
// keys grid-strided, n over up to 1024 workgroups (2^30 each at 2^40 keys): its 32-bit counters
// cannot wrap.
#include "sort_common.glsl"

layout(constant_id = 1) const uint ITEMS = 4;  // keys in flight per invocation
const uint kMaxPasses = KEY_BITS / 8;
shared uint counts[kMaxPasses * kRadix];

void main() {
  const uint passes = (pc.end - pc.begin + 7u) / 8u;
  for (uint k = gl_LocalInvocationIndex; k < kMaxPasses * kRadix; k += WG) counts[k] = 0u;
  barrier();
  const uint stride = gl_NumWorkGroups.x * WG * ITEMS;
  const IDX n = sort_n();
  // The step stops at n rather than wrap past 2^32 (the narrow form's n is at most 2^32 - 2^16).
  for (IDX first = gl_WorkGroupID.x * WG * ITEMS + gl_LocalInvocationIndex; first < n;
       first = n - first > stride ? first + stride : n) {
    BITS k[ITEMS];
    [[unroll]] for (uint j = 0; j < ITEMS; ++j) {
      const IDX i = first + j * WG;
      k[j] = i < n ? sort_bits(key_bits(i)) : BITS(0);
    }
    [[unroll]] for (uint j = 0; j < ITEMS; ++j) {
      if (first + j * WG >= n) continue;
      [[unroll]] for (uint p = 0; p < kMaxPasses; ++p) {
        if (p >= passes) break;
        const uint shift = pc.begin + 8u * p;
        atomicAdd(counts[p * kRadix + digit_at(k[j], shift, min(8u, pc.end - shift))], 1u);
      }
    }
  }
  barrier();
  for (uint k = gl_LocalInvocationIndex; k < passes * kRadix; k += WG)
    if (counts[k] != 0u) add_count(pc.histograms + k * kCountWords, counts[k]);
}
