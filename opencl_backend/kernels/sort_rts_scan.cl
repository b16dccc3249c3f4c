// radix/reduce-then-scan's scan (shaders/sort_rts_scan.comp): one work-group turns the
// digit-major table of counts at pc.bins_in (256 x pc.blocks words) into each (digit, block)'s
// first output index, in place: each work-item sums one contiguous run, the runs' sums are
// scanned, each run is rewritten from its prefix.
SORT_KERNEL {
  SORT_OPERANDS();
  (void)mode;
  __local uint slots[WG_SCAN_SLOTS];
  const uint tid = (uint)get_local_id(0);
  const uint total = kRadix * pc.blocks;
  const uint run = (total + WG - 1u) / WG;
  const uint first = pc.bins_in + min(total, tid * run);
  const uint last = pc.bins_in + min(total, (tid + 1u) * run);
  uint sum = 0;
  for (uint i = first; i < last; ++i) sum += words[i];
  uint at = wg_exclusive_u(sum, slots);
  for (uint i = first; i < last; ++i) {
    const uint c = words[i];
    words[i] = at;
    at += c;
  }
}
