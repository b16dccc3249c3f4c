// radix/onesweep's first pass (shaders/sort_histogram.comp): one read of the keys counts the
// digits of every digit pass at once (8-bit digits from pc.begin to pc.end) into a work-group's
// local counters, then adds them to the histograms at pc.histograms (pass p's 256 counts from
// count p * 256). Grid-strided, n over up to 1024 work-groups (2^30 each at 2^40 keys): a
// work-group's 32-bit counters cannot wrap.
#define kMaxPasses (KEY_BITS / 8)

SORT_KERNEL {
  SORT_OPERANDS();
  __local uint counts[kMaxPasses * kRadix];
  const uint tid = (uint)get_local_id(0);
  const uint passes = (pc.end - pc.begin + 7u) / 8u;
  for (uint k = tid; k < kMaxPasses * kRadix; k += WG) counts[k] = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint stride = (uint)get_num_groups(0) * WG * UNROLL;
  // The step stops at n rather than wrap past 2^32 (the narrow form's n is at most 2^32 - 2^16).
  for (IDX first = (uint)get_group_id(0) * WG * UNROLL + tid; first < PC_N;
       first = PC_N - first > stride ? first + stride : PC_N) {
    BITS k[UNROLL];
#pragma unroll
    for (uint j = 0; j < UNROLL; ++j) {
      const IDX i = first + j * WG;
      k[j] = i < PC_N ? sort_bits((BITS)keys_in[i], mode) : (BITS)0;
    }
#pragma unroll
    for (uint j = 0; j < UNROLL; ++j)
#pragma unroll
      for (uint p = 0; p < kMaxPasses; ++p) {
        const uint shift = pc.begin + 8u * p;
        if (p < passes && first + j * WG < PC_N)
          atomic_inc(&counts[p * kRadix + digit_at(k[j], shift, min(8u, pc.end - shift))]);
      }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint k = tid; k < passes * kRadix; k += WG)
    if (counts[k] != 0u) add_count(words, pc.histograms + k * kCountWords, counts[k]);
}
