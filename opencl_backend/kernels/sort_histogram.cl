// radix/onesweep's first pass (shaders/sort_histogram.comp): one read of the keys counts the
// digits of every digit pass at once (8-bit digits from pc.begin to pc.end) into a work-group's
// local counters, then adds them to the histograms at pc.histograms (pass p's 256 counts at
// p * 256). Grid-strided: a work-group's 32-bit counters cannot wrap below 2^32 keys.
#define kMaxPasses (KEY_BITS / 8)

SORT_KERNEL {
  SORT_OPERANDS();
  __local uint counts[kMaxPasses * kRadix];
  const uint tid = (uint)get_local_id(0);
  const uint passes = (pc.end - pc.begin + 7u) / 8u;
  for (uint k = tid; k < kMaxPasses * kRadix; k += WG) counts[k] = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint stride = (uint)get_num_groups(0) * WG * UNROLL;
  // The step stops at n rather than wrap past 2^32 (n is at most 2^32 - 2^16).
  for (uint first = (uint)get_group_id(0) * WG * UNROLL + tid; first < pc.n;
       first = pc.n - first > stride ? first + stride : pc.n) {
    BITS k[UNROLL];
#pragma unroll
    for (uint j = 0; j < UNROLL; ++j) {
      const uint i = first + j * WG;
      k[j] = i < pc.n ? sort_bits((BITS)keys_in[i], mode) : (BITS)0;
    }
#pragma unroll
    for (uint j = 0; j < UNROLL; ++j)
#pragma unroll
      for (uint p = 0; p < kMaxPasses; ++p) {
        const uint shift = pc.begin + 8u * p;
        if (p < passes && first + j * WG < pc.n)
          atomic_inc(&counts[p * kRadix + digit_at(k[j], shift, min(8u, pc.end - shift))]);
      }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint k = tid; k < passes * kRadix; k += WG)
    if (counts[k] != 0u) atomic_add(&words[pc.histograms + k], counts[k]);
}
