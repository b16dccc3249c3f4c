// The textbook histogram ladder (Hwu, Kirk & El Hajj, "Programming Massively Parallel Processors",
// 4th ed., ch. 9) as one kernel body, each rung a choice of where the adds go, how many samples a
// work-item takes and how it aggregates them (CUDA's kernels/histogram_atomic.cuh):
//   atomic/global        one global atomic_add a sample, one work-item a sample;
//   atomic/privatized    the work-group's copy of the bins in local memory (zeroed, a barrier,
//                        local atomics, a barrier, merged into the output with one global atomic
//                        a nonzero bin), one work-item a sample;
//   atomic/coarsened     privatized, a wave of work-groups striding over the samples
//                        (interleaved: consecutive work-items read consecutive samples);
//   atomic/aggregated    coarsened, a work-item's run of equal consecutive bins added once;
//   subgroup/aggregated  coarsened, the work-items holding one bin elect a leader that adds their
//                        count.
// The host builds it with AGG (how adds are combined):
//   AGG=0  one add a sample (atomic/global, atomic/privatized, atomic/coarsened)
//   AGG=1  a run of equal bins added once (atomic/aggregated)
//   AGG=2  one add a group of equal bins (subgroup/aggregated): with NVIDIA's warps (XR_SG_PTX)
//          the lanes of one bin find each other by match.any.sync (XR_HIST_MATCH_ANY, sm_70 and
//          later) or by ballots over the bin's bits, and the lowest adds their number; without
//          sub-groups the bins of MATCH consecutive work-items meet in local memory, and the first
//          work-item of each bin there counts the others, as the OpenCL sort ranks its keys by
//          counting where no sub-group votes
// The grid (one work-item a sample, or a wave) is the host's: the body strides over the samples
// either way. Past the local memory the privatized rungs add into the output in global memory
// instead (`privatized` 0), as CUDA's do past shared memory.
#ifndef AGG
#error "AGG (the rung's aggregation) is set by the host"
#endif

// A work-item's add: into the work-group's counters, or the output's.
void add_bin(__local uint* mine, __global uint* out, const HistArgs* a, int bin, uint c) {
  if (a->privatized != 0u)
    atomic_add(&mine[bin], c);
  else
    add_count(out, (uint)bin, c, a->wide);
}

#if AGG == 2 && SG > 1
uint lanes_below(void) {
  uint m;
  __asm__ volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}
#ifdef XR_HIST_MATCH_ANY
// The lanes of the warp whose bin is this lane's.
uint peers_of(int bin, uint bits) {
  uint m;
  (void)bits;
  __asm__ volatile("match.any.sync.b32 %0, %1, -1;" : "=r"(m) : "r"(bin));
  return m;
}
#else
// The same by one ballot a bit of bin + 1 (0 for no bin), each complemented in the lanes whose
// bit is clear (the sort's ranking, over `bits` bits rather than a digit's eight).
uint peers_of(int bin, uint bits) {
  const uint key = (uint)(bin + 1);
  uint peers = 0xffffffffu;
  for (uint b = 0; b < bits; ++b) {
    uint agree;
    __asm__ volatile(
        "{\n\t.reg .pred set;\n\tsetp.ne.u32 set, %1, 0;\n\t"
        "vote.sync.ballot.b32 %0, set, 0xffffffff;\n\t@!set not.b32 %0, %0;\n\t}"
        : "=r"(agree)
        : "r"(key & (1u << b)));
    peers &= agree;
  }
  return peers;
}
#endif
#endif

// This work-item's samples (first, first + stride, ...), each bin added by add_bin as AGG says.
void count_strided(__global const SAMPLE* restrict samples, IDX n, IDX first, IDX stride,
                   const Rule r, __local uint* mine, __global uint* out, const HistArgs* a) {
#if AGG == 0
  for (IDX i = first; i < n; i += stride) {
    const int bin = bin_of(samples[i], r);
    if (bin != kNoBin) add_bin(mine, out, a, bin, 1u);
  }
#elif AGG == 1
  int prev = kNoBin;
  uint run = 0u;
  for (IDX i = first; i < n; i += stride) {
    const int bin = bin_of(samples[i], r);
    if (bin != prev) {
      if (prev != kNoBin) add_bin(mine, out, a, prev, run);
      prev = bin;
      run = 0u;
    }
    ++run;
  }
  if (prev != kNoBin) add_bin(mine, out, a, prev, run);
#elif SG > 1
  // The loop runs while the warp's first lane has a sample, so every lane reaches the vote: a
  // lane past n matches the others past n with kNoBin, and that group adds nothing.
  const uint lane = sg_lane();
  for (IDX i = first; i - lane < n; i += stride) {
    const int bin = i < n ? bin_of(samples[i], r) : kNoBin;
    const uint peers = peers_of(bin, a->bin_bits);
    if (bin != kNoBin && (peers & lanes_below()) == 0u) add_bin(mine, out, a, bin, popcount(peers));
  }
#else
  // The work-group's samples a round at a time (the round's first index is the same in every
  // work-item, so each reaches both barriers): each work-item's bin in its slot, then each reads
  // the MATCH slots of its group of work-items.
  __local int* slots = (__local int*)(mine + (a->privatized != 0u ? a->bins : 0u));
  const uint lid = (uint)get_local_id(0);
  const uint group_first = lid & ~(MATCH - 1u);
  for (IDX base = first - lid; base < n; base += stride) {
    const IDX i = base + lid;
    const int bin = i < n ? bin_of(samples[i], r) : kNoBin;
    slots[lid] = bin;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint before = 0u, equal = 0u;
    for (uint j = group_first; j < group_first + MATCH; ++j) {
      const uint same = slots[j] == bin ? 1u : 0u;
      equal += same;
      before += j < lid ? same : 0u;
    }
    if (bin != kNoBin && before == 0u) add_bin(mine, out, a, bin, equal);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#endif
}

HIST_KERNEL {
  HIST_UNUSED_ARGS;
  const IDX n = samples_of_call(&a, count_base, count_at);
  __global uint* out = adds_base + adds_at;
  const uint mine_words = a.privatized != 0u ? a.bins : 0u;
  zero_local(local_words, mine_words);
  barrier(CLK_LOCAL_MEM_FENCE);
  count_strided(samples, n, item_index(), item_count(), rule_of(&a),
                local_words, out, &a);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = (uint)get_local_id(0); b < mine_words; b += WG) {
    const uint c = local_words[b];
    if (c != 0u) add_count(out, b, c, a.wide);
  }
}
