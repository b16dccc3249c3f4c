#version 450
// fast/replicated past the shared memory: counts[b] = (accumulate ? counts[b] : 0) + the sum of
// bin b over the pc.copies copies of the bins in scratch, pc.bins counters apart, for every bin:
// one invocation a bin, consecutive invocations consecutive bins, no atomics (a bin has one
// writer). u64 counts (kWideCounts) are summed in 64 bits from their two words.
#define HISTOGRAM_NO_SAMPLES
#include "histogram_common.glsl"

uint64_t wide(uint low, uint high) { return uint64_t(low) | (uint64_t(high) << 32); }

void main() {
  const uint threads = gl_NumWorkGroups.x * WG;
  const bool accumulate = (pc.flags & kAccumulate) != 0u;
  for (uint b = gl_GlobalInvocationID.x; b < pc.bins; b += threads) {
    if (kWideCounts) {
      uint64_t sum = accumulate ? wide(counts[2u * b], counts[2u * b + 1u]) : 0ul;
      for (uint c = 0u; c < pc.copies; ++c) {
        const uint at = 2u * (c * pc.bins + b);
        sum += wide(scratch[at], scratch[at + 1u]);
      }
      counts[2u * b] = uint(sum);
      counts[2u * b + 1u] = uint(sum >> 32);
    } else {
      uint sum = accumulate ? counts[b] : 0u;
      for (uint c = 0u; c < pc.copies; ++c) sum += scratch[c * pc.bins + b];
      counts[b] = sum;
    }
  }
}
