// fast/replicated (CUDA's kernels/histogram_fast.cuh): a resident wave of work-groups reads the
// samples 16 bytes a work-item at a time (16 u8, 8 u16, 4 32-bit or 2 f64 samples a load, UNROLL
// loads in flight), then the tail one a work-item; each sample adds one to its bin in the
// work-item's sub-histogram:
//  - in local memory (the default): `copies` sub-histograms a work-group, work-item i adding into
//    copy i % copies; copies are `stride` counters apart, stride = 1 modulo 32, so that the
//    lanes of a warp that hit one bin hit 32 different counters in 32 different banks. The
//    copies are summed bin by bin at the end and each nonzero bin added to the output with one
//    global atomic.
//  - LANE_BANKED (where the plan's tuning row says): the copies hold 32 counters a bin instead,
//    bin b of work-item i at counter 32 b + i % 32 of copy (i / 32) % copies, so that every
//    counter of a lane lies in the lane's own bank and a warp's adds never share one wherever
//    its samples fall; the warps of one copy share its counters through the atomics. A sample
//    counted nowhere adds into a discard bin past the last, so that every add is unconditional.
//  - GLOBAL_COPIES (bins past the local memory): work-group g adds into copy g % copies of the
//    bins in global memory (the output itself with one copy), and histogram_merge.cl folds the
//    copies into the output.
// The buffers start at the device's base address alignment (CL_DEVICE_MEM_BASE_ADDR_ALIGN, at
// least a 16-byte vector's), so every vector of the body is aligned and no head is read apart.

// A vector's samples one by one.
typedef union {
  SAMPLE_VEC v;
  SAMPLE e[VEC_N];
} SampleVec;

#ifdef GLOBAL_COPIES
#define COUNT_SAMPLE(s)                                    \
  {                                                        \
    const int bin = bin_of((s), r);                        \
    if (bin != kNoBin) add_count(mine, (uint)bin, 1u, wide); \
  }
#elif defined(LANE_BANKED) && defined(IDENTITY_BINS)
// The identity path (width == bins): d clamped to bins is the bin or the discard bin, with no
// compare and select for the compiler to turn into a branch.
#define COUNT_SAMPLE(s) atomic_add(&mine[min((uint)(s) - r.offset, r.bins) * 32u], 1u)
#elif defined(LANE_BANKED)
// Counted nowhere: the discard bin past the last, so that the add needs no branch.
#define COUNT_SAMPLE(s)                                                              \
  {                                                                                  \
    const int bin = bin_of((s), r);                                                  \
    atomic_add(&mine[(bin == kNoBin ? (uint)r.bins : (uint)bin) * 32u], 1u);         \
  }
#else
#define COUNT_SAMPLE(s)                                  \
  {                                                      \
    const int bin = bin_of((s), r);                      \
    if (bin != kNoBin) atomic_add(&mine[bin], 1u);       \
  }
#endif

#ifdef GLOBAL_COPIES
void count_samples(__global const SAMPLE* restrict samples, IDX n, const Rule r,
                   __global uint* mine, uint wide) {
#else
void count_samples(__global const SAMPLE* restrict samples, IDX n, const Rule r,
                   __local uint* mine) {
#endif
  const IDX threads = item_count();
  const IDX first = item_index();
  const IDX packs = n / VEC_N;
  __global const SAMPLE_VEC* vectors = (__global const SAMPLE_VEC*)samples;
  for (IDX v = first; v < packs; v += threads * UNROLL) {
    SampleVec p[UNROLL];
#pragma unroll
    for (uint u = 0; u < UNROLL; ++u)
      if (v + u * threads < packs) p[u].v = vectors[v + u * threads];
#pragma unroll
    for (uint u = 0; u < UNROLL; ++u)
      if (v + u * threads < packs)
#pragma unroll
        for (uint j = 0; j < VEC_N; ++j) COUNT_SAMPLE(p[u].e[j]);
  }
  for (IDX i = packs * VEC_N + first; i < n; i += threads) COUNT_SAMPLE(samples[i]);
}

#ifdef LANE_BANKED
// The lane-banked copies folded into the first (consecutive work-items, consecutive counters),
// then each bin's 32 counters summed by one work-item, work-item b starting at lane b % 32 so
// that a warp's reads fall in 32 banks, and each nonzero bin added to the output once.
void add_lane_banked(__local uint* words, const HistArgs* a, __global uint* out) {
  const uint local_id = (uint)get_local_id(0);
  if (a->copies > 1u) {
    for (uint k = local_id; k < a->stride; k += WG) {
      uint sum = 0u;
      for (uint c = 0; c < a->copies; ++c) sum += words[c * a->stride + k];
      words[k] = sum;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (uint b = local_id; b < a->bins; b += WG) {
    uint sum = 0u;
    for (uint l = 0; l < 32u; ++l) sum += words[b * 32u + ((l + b) & 31u)];
    if (sum != 0u) add_count(out, b, sum, a->wide);
  }
}
#endif

HIST_KERNEL {
  HIST_UNUSED_ARGS;
  const IDX n = samples_of_call(&a, count_base, count_at);
  __global uint* out = adds_base + adds_at;
#ifdef GLOBAL_COPIES
  const size_t words = a.wide != 0u ? 2u : 1u;
  __global uint* mine = out + (size_t)(get_group_id(0) % a.copies) * a.bins * words;
  count_samples(samples, n, rule_of(&a), mine, a.wide);
#else
  zero_local(local_words, a.copies * a.stride);
  barrier(CLK_LOCAL_MEM_FENCE);
#ifdef LANE_BANKED
  const uint lane_of_item = (uint)get_local_id(0);
  __local uint* mine =
      local_words + (lane_of_item / 32u % a.copies) * a.stride + (lane_of_item & 31u);
#else
  __local uint* mine = local_words + ((uint)get_local_id(0) & (a.copies - 1u)) * a.stride;
#endif
  count_samples(samples, n, rule_of(&a), mine);
  barrier(CLK_LOCAL_MEM_FENCE);
#ifdef LANE_BANKED
  add_lane_banked(local_words, &a, out);
#else
  for (uint b = (uint)get_local_id(0); b < a.bins; b += WG) {
    uint sum = 0u;
    for (uint c = 0; c < a.copies; ++c) sum += local_words[c * a.stride + b];
    if (sum != 0u) add_count(out, b, sum, a.wide);
  }
#endif
#endif
}
