// fast/reduce-then-scan, pass 2 (the port of shaders/scan_rts_partials.comp, CUDA's
// scan_rts_partials): one work-group turns the n partials at aux (from aux_offset) into their
// exclusive prefixes, in place. Each work-item folds a run of consecutive partials, in local-id
// order; the run totals are scanned across the work-group (wg_exclusive_scan: sub-groups where
// there are, local memory otherwise); each run is rewritten from its prefix.
XR_KERNEL {
  XR_UNUSED_ARGS;
  __local T slots[2 * WG];
  const uint tid = (uint)get_local_id(0);
  const uint count = (uint)n;  // one partial per work-group of pass 1: a 32-bit count
  const uint per = (count + WG - 1u) / WG;
  const uint first = tid * per;
  const uint begin = first < count ? first : count;
  const uint end = begin + per < count ? begin + per : count;
  __global T* partials = aux + aux_offset;
  T run = IDENTITY;
  for (uint i = begin; i < end; ++i) run = OP(run, partials[i]);
  T total;
  T prefix = wg_exclusive_scan(run, slots, &total);
  for (uint i = begin; i < end; ++i) {
    const T x = partials[i];
    partials[i] = prefix;
    prefix = OP(prefix, x);
  }
}
