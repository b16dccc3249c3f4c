#version 450
// radix/onesweep's first pass: one read of the keys counts the digits of every digit pass at
// once (8-bit digits from pc.begin to pc.end), into a workgroup's shared counters, then added to
// the histograms at pc.histograms (pass p's 256 counts at p * 256). A workgroup counts keys
// grid-strided: its 32-bit counters cannot wrap below 2^32 keys.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "sort_common.glsl"

layout(constant_id = 1) const uint ITEMS = 4;  // keys in flight per invocation
const uint kMaxPasses = KEY_BITS / 8;
shared uint counts[kMaxPasses * kRadix];

void main() {
  const uint passes = (pc.end - pc.begin + 7u) / 8u;
  for (uint k = gl_LocalInvocationIndex; k < kMaxPasses * kRadix; k += WG) counts[k] = 0u;
  barrier();
  const uint stride = gl_NumWorkGroups.x * WG * ITEMS;
  // The step stops at n rather than wrap past 2^32 (n is at most 2^32 - 2^16).
  for (uint first = gl_WorkGroupID.x * WG * ITEMS + gl_LocalInvocationIndex; first < pc.n;
       first = pc.n - first > stride ? first + stride : pc.n) {
    BITS k[ITEMS];
    [[unroll]] for (uint j = 0; j < ITEMS; ++j) {
      const uint i = first + j * WG;
      k[j] = i < pc.n ? sort_bits(key_bits(i)) : BITS(0);
    }
    [[unroll]] for (uint j = 0; j < ITEMS; ++j) {
      if (first + j * WG >= pc.n) continue;
      [[unroll]] for (uint p = 0; p < kMaxPasses; ++p) {
        if (p >= passes) break;
        const uint shift = pc.begin + 8u * p;
        atomicAdd(counts[p * kRadix + digit_at(k[j], shift, min(8u, pc.end - shift))], 1u);
      }
    }
  }
  barrier();
  for (uint k = gl_LocalInvocationIndex; k < passes * kRadix; k += WG)
    if (counts[k] != 0u) atomicAdd(words[pc.histograms + k], counts[k]);
}
