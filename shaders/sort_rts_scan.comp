#version 450
// radix/reduce-then-scan's scan: one workgroup turns the digit-major table of counts at
// pc.bins_in (256 x pc.blocks words) into each (digit, block)'s first output index, in place:
// each invocation sums one contiguous run, the runs' sums are scanned, each run is rewritten
// from its prefix.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#define K32
#include "sort_common.glsl"

shared uint subgroup_sums[128];

// The exclusive scan of `v` over the whole workgroup (subgroups of at least WG / 128).
uint exclusive_over_workgroup(uint v) {
  const uint inclusive = subgroupInclusiveAdd(v);
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) subgroup_sums[gl_SubgroupID] = inclusive;
  barrier();
  uint before = 0;
  for (uint s = 0; s < gl_SubgroupID; ++s) before += subgroup_sums[s];
  return before + inclusive - v;
}

void main() {
  const uint total = kRadix * pc.blocks;
  const uint run = (total + WG - 1u) / WG;
  const uint first = pc.bins_in + min(total, gl_LocalInvocationIndex * run);
  const uint last = pc.bins_in + min(total, (gl_LocalInvocationIndex + 1u) * run);
  uint sum = 0;
  for (uint i = first; i < last; ++i) sum += words[i];
  uint at = exclusive_over_workgroup(sum);
  for (uint i = first; i < last; ++i) {
    const uint c = words[i];
    words[i] = at;
    at += c;
  }
}
