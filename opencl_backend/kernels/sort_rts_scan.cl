// radix/reduce-then-scan's scan (shaders/sort_rts_scan.comp): work-group d turns row d of the
// digit-major table at pc.bins_in (digit d's count in each of the pc.blocks blocks) into its
// inclusive prefix sums, in place, WG counts a step (each load coalesced), the step's total
// carried on. The downsweep adds the digits' starts from the rows' totals.
SORT_KERNEL {
  SORT_OPERANDS();
  (void)mode;
  const uint tid = (uint)get_local_id(0);
  const uint row = pc.bins_in + (uint)get_group_id(0) * pc.blocks * kCountWords;
#ifdef WIDE
  __local ulong slots[2u * WG];
#else
  __local uint slots[WG_SCAN_SLOTS];
#endif
  __local IDX step_total;
  IDX carry = 0;
  for (uint base = 0u; base < pc.blocks; base += WG) {
    const uint i = base + tid;
    const IDX c = i < pc.blocks ? load_count(words, row + i * kCountWords) : (IDX)0;
#ifdef WIDE
    const IDX before = wg_exclusive_wide(c, slots);
#else
    const IDX before = wg_exclusive_u(c, slots);
#endif
    if (i < pc.blocks) store_count(words, row + i * kCountWords, carry + before + c);
    if (tid == WG - 1u) step_total = before + c;
    barrier(CLK_LOCAL_MEM_FENCE);
    carry += step_total;
    barrier(CLK_LOCAL_MEM_FENCE);  // step_total is written again by the next step
  }
}
