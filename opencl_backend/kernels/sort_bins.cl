// radix/onesweep's second pass (shaders/sort_bins.comp): work-group p turns pass p's histogram
// into each digit's first index (its exclusive scan), the bins of the pass's first portion, at
// pc.bins + p * 512 counts. WG >= 256.
SORT_KERNEL {
  SORT_OPERANDS();
  (void)mode;
  const uint p = (uint)get_group_id(0), d = (uint)get_local_id(0);
  const IDX count =
      d < kRadix ? load_count(words, pc.histograms + (p * kRadix + d) * kCountWords) : 0u;
#ifdef WIDE
  __local ulong slots[2u * WG];
  const IDX first = wg_exclusive_wide(count, slots);
#else
  __local uint slots[WG_SCAN_SLOTS];
  const IDX first = wg_exclusive_u(count, slots);
#endif
  if (d < kRadix) store_count(words, pc.bins + (p * 2u * kRadix + d) * kCountWords, first);
}
