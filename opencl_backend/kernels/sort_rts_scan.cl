// radix/reduce-then-scan's scan (shaders/sort_rts_scan.comp): one work-group turns the
// digit-major table of counts at pc.bins_in (256 x pc.blocks words) into each (digit, block)'s
// first output index, in place: each work-item sums one contiguous run, the runs' sums are
// scanned, each run is rewritten from its prefix.
SORT_KERNEL {
  SORT_OPERANDS();
  (void)mode;
  const uint tid = (uint)get_local_id(0);
  const uint total = kRadix * pc.blocks;
  const uint run = (total + WG - 1u) / WG;
  const uint first = min(total, tid * run);
  const uint last = min(total, (tid + 1u) * run);
  IDX sum = 0;
  for (uint i = first; i < last; ++i) sum += load_count(words, pc.bins_in + i * kCountWords);
#ifdef WIDE
  __local ulong slots[2u * WG];
  IDX at = wg_exclusive_wide(sum, slots);
#else
  __local uint slots[WG_SCAN_SLOTS];
  IDX at = wg_exclusive_u(sum, slots);
#endif
  for (uint i = first; i < last; ++i) {
    const IDX c = load_count(words, pc.bins_in + i * kCountWords);
    store_count(words, pc.bins_in + i * kCountWords, at);
    at += c;
  }
}
