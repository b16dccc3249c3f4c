#version 450
// The textbook histogram ladder (Hwu, Kirk & El Hajj, "Programming Massively Parallel
// Processors", 4th ed., ch. 9) as one body, each rung a choice of where the adds go and how an
// invocation's samples are combined before they reach the counters (the mode's bits):
//   atomic/global        one atomicAdd on the counts a sample;
//   atomic/privatized    the workgroup's copy of the bins in shared memory (zeroed, a barrier,
//                        shared atomics, a barrier, each nonzero bin added to the counts once);
//   atomic/coarsened     privatized, a wave of workgroups striding over the samples (interleaved:
//                        a subgroup's loads stay contiguous);
//   atomic/aggregated    coarsened, an invocation's run of equal consecutive bins added once;
//   subgroup/aggregated  coarsened, a subgroup's invocations of one bin found (XR_SUBGROUP: by
//                        subgroupPartitionNV with XR_PARTITION, else by a ballot loop) and added
//                        once by one of them.
// The grid (one invocation a sample, or a wave) is the host's; the body strides either way. Past
// the shared memory the privatized rungs add into the counts instead (the mode's bit 4 clear).
// The host bounds a workgroup's samples below 2^32, so the shared u32 counters cannot wrap.
#ifdef XR_SUBGROUP
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#ifdef XR_PARTITION
#extension GL_NV_shader_subgroup_partitioned : require
#endif
#endif
#include "histogram_common.glsl"

shared uint private_bins[SHARED_WORDS];

void add(int bin, uint c) {
  if (kPrivatized)
    atomicAdd(private_bins[bin], c);
  else
    add_count(uint(bin), c);
}

#ifdef XR_SUBGROUP
// One add per group of the subgroup's invocations here that hold one bin, by one of them, of the
// group's size. An invocation with no bin adds nothing.
void add_matched(int bin) {
#ifdef XR_PARTITION
  const uvec4 peers = subgroupPartitionNV(bin);
  if (bin != kNoBin && gl_SubgroupInvocationID == subgroupBallotFindLSB(peers))
    add(bin, subgroupBallotBitCount(peers));
#else
  // Each round the invocations still here take the first one's bin; those holding it add once
  // and leave, so every round serves at least one and the loop ends.
  if (bin == kNoBin) return;
  for (;;) {
    const int leader = subgroupBroadcastFirst(bin);
    const uvec4 peers = subgroupBallot(bin == leader);
    if (bin == leader) {
      if (subgroupElect()) add(bin, subgroupBallotBitCount(peers));
      break;
    }
  }
#endif
}
#endif

// This invocation's samples, first, first + stride, ..., below n, combined as the rung says.
void count_strided(IDX first, IDX stride, IDX n) {
#ifdef XR_SUBGROUP
  for (IDX i = first; i < n; i += stride) add_matched(bin_of(load_sample(i)));
#else
  if (kAggregation == 1u) {
    int prev = kNoBin;
    uint run = 0u;
    for (IDX i = first; i < n; i += stride) {
      const int bin = bin_of(load_sample(i));
      if (bin != prev) {
        if (prev != kNoBin) add(prev, run);
        prev = bin;
        run = 0u;
      }
      ++run;
    }
    if (prev != kNoBin) add(prev, run);
  } else {
    for (IDX i = first; i < n; i += stride) {
      const int bin = bin_of(load_sample(i));
      if (bin != kNoBin) add(bin, 1u);
    }
  }
#endif
}

void main() {
  const IDX n = call_samples();
  const IDX base = IDX(gl_WorkGroupID.x) * WG;
  // A workgroup past the call's samples (fewer on the device than the grid was made for) has
  // nothing to count or merge: the whole workgroup leaves before any barrier.
  if (base >= n) return;
  const uint local = gl_LocalInvocationIndex;
  if (kPrivatized) {
    for (uint b = local; b < pc.bins; b += WG) private_bins[b] = 0u;
    barrier();
  }
  count_strided(base + local, IDX(gl_NumWorkGroups.x) * WG, n);
  if (kPrivatized) {
    barrier();
    for (uint b = local; b < pc.bins; b += WG) {
      const uint c = private_bins[b];
      if (c != 0u) add_count(b, c);
    }
  }
}
