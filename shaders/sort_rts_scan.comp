#version 450
// radix/reduce-then-scan's scan: one workgroup turns the digit-major table of counts at
// pc.bins_in (256 x pc.blocks counts) into each (digit, block)'s first output index, in place:
// each invocation sums one contiguous run, the runs' sums are scanned, each run is rewritten
// from its prefix.
#define K32
#define SORT_SHARED_SCAN
#include "sort_common.glsl"

void main() {
  const uint total = kRadix * pc.blocks;
  const uint run = (total + WG - 1u) / WG;
  const uint first = min(total, gl_LocalInvocationIndex * run);
  const uint last = min(total, (gl_LocalInvocationIndex + 1u) * run);
  IDX sum = 0u;
  for (uint i = first; i < last; ++i) sum += load_count(pc.bins_in + i * kCountWords);
#ifdef XR_ADDRESS
  IDX at = exclusive_over_workgroup_wide(sum);
#else
  IDX at = exclusive_over_workgroup(sum);
#endif
  for (uint i = first; i < last; ++i) {
    const IDX c = load_count(pc.bins_in + i * kCountWords);
    store_count(pc.bins_in + i * kCountWords, at);
    at += c;
  }
}
