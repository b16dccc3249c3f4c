#version 450
// fast/replicated: a wave of workgroups reads the samples 16 bytes an invocation at a time (16
// u8, 8 u16, 4 32-bit or 2 f64 samples a load, ITEMS loads in flight), the tail one sample an
// invocation. Where the bins fit the shared memory (the mode's bit 4), each workgroup counts into
// pc.copies sub-histograms there, invocation i adding into copy i % copies: the copies are
// pc.copy_stride counters apart (the bins rounded up to 32, plus one), so the invocations of a
// subgroup that hit one bin hit different copies in different banks of a 32-bank shared memory;
// the copies are summed bin by bin at the end and each nonzero bin added to the counts once.
// Lane-banked (the mode's bit 7), the copies hold 32 counters a bin instead: bin b of invocation
// i at counter b * 32 + i % 32 of copy (i / 32) % copies, so that every counter of a lane of a
// 32-bank shared memory lies in the lane's own bank and a subgroup's adds never share one,
// wherever its samples fall; the subgroups of one copy share its counters through the atomics.
// A sample counted nowhere adds into a discard bin past the last (bin pc.bins), so that every
// add is unconditional: a branch around each atomic costs more than the add.
// Bins past one workgroup's shared memory split into slices of pc.slice_bins, grid row y
// counting bins [y * slice_bins, (y + 1) * slice_bins): each row reads every sample and counts
// those of its slice.
// Past the shared memory, workgroup g adds one global atomic a sample into copy g % copies of the
// bins in scratch (bit 6; histogram_sum.comp then folds them into the counts), or, with one
// copy, into the counts. The samples' offset is a multiple of 16 bytes (the host's check), so
// every vector load is aligned; no head.
#include "histogram_common.glsl"

shared uint sub_histograms[SHARED_WORDS];

// Counts sample s into the invocation's copy: `mine`, its first counter (shared memory, of the
// row's slice from `first_bin`, `slice` bins; or scratch), or the counts.
void count(SAMPLE s, uint mine, uint first_bin, uint slice) {
#ifndef FLOAT_SAMPLES
  if (kLaneBanked && kPath == 0u) {
    // The identity path (width == bins): d clamped to bins is the bin or the discard bin.
    atomicAdd(sub_histograms[mine + min(s - pc.lower_low, pc.bins) * 32u], 1u);
    return;
  }
#endif
  const int bin = bin_of(s);
  if (kLaneBanked) {
    // Counted nowhere: the discard bin past the last, so that the add needs no branch.
    atomicAdd(sub_histograms[mine + (bin == kNoBin ? pc.bins : uint(bin)) * 32u], 1u);
    return;
  }
  if (bin == kNoBin) return;
  if (kPrivatized) {
    const uint b = uint(bin) - first_bin;  // another slice's bins wrap past `slice`
    if (b < slice) atomicAdd(sub_histograms[mine + b], 1u);
  } else if (kIntoScratch)
    add_scratch(mine + uint(bin), 1u);
  else
    add_count(uint(bin), 1u);
}

// The lane-banked copies folded into the first (consecutive invocations, consecutive counters),
// then each bin's 32 counters summed by one invocation, invocation b starting at lane b % 32 so
// that a subgroup's reads fall in 32 banks, and each nonzero bin added to the counts once.
void add_lane_banked(uint local) {
  if (pc.copies > 1u) {
    for (uint k = local; k < pc.copy_stride; k += WG) {
      uint sum = 0u;
      for (uint c = 0u; c < pc.copies; ++c) sum += sub_histograms[c * pc.copy_stride + k];
      sub_histograms[k] = sum;
    }
    barrier();
  }
  for (uint b = local; b < pc.bins; b += WG) {
    uint sum = 0u;
    for (uint l = 0u; l < 32u; ++l) sum += sub_histograms[b * 32u + ((l + b) & 31u)];
    if (sum != 0u) add_count(b, sum);
  }
}

void main() {
  const IDX n = call_samples();
  const uint local = gl_LocalInvocationIndex;
  const IDX threads = IDX(gl_NumWorkGroups.x) * WG;
  const IDX first = IDX(gl_WorkGroupID.x) * WG + local;
  uint mine = 0u;
  const uint first_bin = kPrivatized ? gl_WorkGroupID.y * pc.slice_bins : 0u;
  const uint slice = kPrivatized ? min(pc.slice_bins, pc.bins - first_bin) : pc.bins;
  if (kPrivatized) {
    for (uint k = local; k < pc.copies * pc.copy_stride; k += WG) sub_histograms[k] = 0u;
    barrier();
    mine = kLaneBanked ? (local / 32u % pc.copies) * pc.copy_stride + (local & 31u)
                       : (local & (pc.copies - 1u)) * pc.copy_stride;
  } else if (kIntoScratch) {
    mine = (gl_WorkGroupID.x % pc.copies) * pc.bins;
  }
  const IDX vectors = n / kPerVector;
  for (IDX v = first; v < vectors; v += threads * ITEMS) {
    uvec4 p[ITEMS];
    [[unroll]] for (uint u = 0u; u < ITEMS; ++u) {
      const IDX at = v + u * threads;
      p[u] = uvec4(0u);
      if (at < vectors) p[u] = sample_vector(at);
    }
    [[unroll]] for (uint u = 0u; u < ITEMS; ++u) {
      if (v + u * threads >= vectors) break;
      [[unroll]] for (uint k = 0u; k < kPerVector; ++k) count(vector_sample(p[u], k), mine, first_bin, slice);
    }
  }
  for (IDX i = vectors * kPerVector + first; i < n; i += threads)
    count(load_sample(i), mine, first_bin, slice);
  if (kLaneBanked) {
    barrier();
    add_lane_banked(local);
  } else if (kPrivatized) {
    barrier();
    for (uint b = local; b < slice; b += WG) {
      uint sum = 0u;
      for (uint c = 0u; c < pc.copies; ++c) sum += sub_histograms[c * pc.copy_stride + b];
      if (sum != 0u) add_count(first_bin + b, sum);
    }
  }
}
