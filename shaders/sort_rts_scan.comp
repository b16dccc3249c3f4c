#version 450
// radix/reduce-then-scan's scan: workgroup d turns row d of the digit-major table at pc.bins_in
// (digit d's count in each of the pc.blocks blocks) into its inclusive prefix sums, in place, WG
// counts a step (each load coalesced), the step's total carried on. The rows are independent: a
// workgroup a digit shares what one workgroup would scan alone, and the downsweep adds the
// digits' starts from the rows' totals (sort_rts_scatter.comp).
#define K32
#define SORT_SHARED_SCAN
#include "sort_common.glsl"

shared IDX step_total;

void main() {
  const uint row = pc.bins_in + gl_WorkGroupID.x * pc.blocks * kCountWords;
  IDX carry = 0u;
  for (uint base = 0u; base < pc.blocks; base += WG) {
    const uint i = base + gl_LocalInvocationIndex;
    const IDX c = i < pc.blocks ? load_count(row + i * kCountWords) : IDX(0u);
#ifdef XR_ADDRESS
    const IDX before = exclusive_over_workgroup_wide(c);
#else
    const IDX before = exclusive_over_workgroup(c);
#endif
    if (i < pc.blocks) store_count(row + i * kCountWords, carry + before + c);
    if (gl_LocalInvocationIndex == WG - 1u) step_total = before + c;
    barrier();
    carry += step_total;
    barrier();  // step_total is written again by the next step
  }
}
