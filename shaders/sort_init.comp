#version 450
// A sort call's first pass: zeroes its first pc.blocks words of scratch (the histograms, the
// launches' tile counters and onesweep's first status set; vk_sort_plan.cpp lays them out).
#define K32
#include "sort_common.glsl"

void main() {
  const uint stride = gl_NumWorkGroups.x * WG;
  for (uint i = gl_WorkGroupID.x * WG + gl_LocalInvocationIndex; i < pc.blocks; i += stride)
    words[i] = 0u;
}
