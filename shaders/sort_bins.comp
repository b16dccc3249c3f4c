#version 450
// radix/onesweep's second pass: workgroup p turns pass p's histogram into each digit's first
// index (its exclusive scan), the bins of the pass's first portion, at pc.bins + p * 512.
// 256 invocations.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#define K32
#include "sort_common.glsl"

void main() {
  const uint p = gl_WorkGroupID.x, d = gl_LocalInvocationIndex;
  const uint count = d < kRadix ? words[pc.histograms + p * kRadix + d] : 0u;
  const uint first = exclusive_over_digits(count);
  if (d < kRadix) words[pc.bins + p * 2u * kRadix + d] = first;
}
