// radix/onesweep's second pass (shaders/sort_bins.comp): work-group p turns pass p's histogram
// into each digit's first index (its exclusive scan), the bins of the pass's first portion, at
// pc.bins + p * 512. WG >= 256.
SORT_KERNEL {
  SORT_OPERANDS();
  (void)mode;
  __local uint slots[WG_SCAN_SLOTS];
  const uint p = (uint)get_group_id(0), d = (uint)get_local_id(0);
  const uint count = d < kRadix ? words[pc.histograms + p * kRadix + d] : 0u;
  const uint first = wg_exclusive_u(count, slots);
  if (d < kRadix) words[pc.bins + p * 2u * kRadix + d] = first;
}
