#version 450
// radix/onesweep's second pass: workgroup p turns pass p's histogram into each digit's first
// index (its exclusive scan), the bins of the pass's first portion, at pc.bins + p * 512 counts.
// 256 invocations.
#define K32
#define SORT_SHARED_SCAN
#include "sort_common.glsl"

void main() {
  const uint p = gl_WorkGroupID.x, d = gl_LocalInvocationIndex;
  const IDX count = d < kRadix ? load_count(pc.histograms + (p * kRadix + d) * kCountWords) : 0u;
#ifdef XR_ADDRESS
  const IDX first = exclusive_over_workgroup_wide(count);
#else
  const IDX first = exclusive_over_workgroup(count);
#endif
  if (d < kRadix) store_count(pc.bins + (p * 2u * kRadix + d) * kCountWords, first);
}
