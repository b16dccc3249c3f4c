// Shared by every histogram shader: the sample type from a compile-time define (S_U8, S_U16,
// S_I32, S_U32, S_F32, S_F64: one module per type, core's kHistogramSampleDTypes), the push
// constants (the host's histogram::Args, vulkan_backend/library/vk_histogram_plan.hpp, byte for
// byte), the specialization constants, the operands and core's bin rule (xreduce/histogram.hpp,
// EvenBins) over the constants the host computed by its formulas.
//
// Operands: binding 0 the samples (or, with XR_ADDRESS, their device address, the push
// constants' first 64-bit word, and 64-bit indices: the modules for samples past one binding or
// 2^31 of them), 1 the counts (or the range a zero pass clears), 2 the scratch (the copies of the
// bins in global memory), 3 the count on the device. Samples of 8 and 16 bits are read as the
// 32-bit words that hold them (no 8- or 16-bit storage feature); the host's operand check makes
// the samples' range whole words, and their offset a multiple of 16 bytes for the vector loads.
//
// Counters are u32 words; u64 counts (kWideCounts) are two words, low then high, and an add that
// wraps the low word carries one into the high word: exact once every add has landed, with no
// 64-bit atomics (shaderBufferInt64Atomics), as the sort's wide counts (sort_common.glsl).
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#ifdef XR_ADDRESS
#extension GL_EXT_buffer_reference : require
#endif

layout(push_constant) uniform HistogramParams {
#ifdef XR_ADDRESS
  uint64_t samples_at;
#endif
  uint n;        // the call's samples (with a count on the device, the most it counts)
  uint n_high;   // their high word (XR_ADDRESS)
  uint counted;  // 1: the call counts min(count_word, n) samples
  uint bins;
  // Float samples: lower, upper and scale = T(bins) / T(upper - lower), each a value of the
  // sample's type, as bits (an f32's in the low word, an f64's in both). Integer samples: lower's
  // low 32 bits, the width less one (the largest d in range) and the width (1 to 2^32).
  uint lower_low;
  uint lower_high;
  uint upper_low;
  uint upper_high;
  uint scale_low;
  uint scale_high;
  uint copies;       // sub-histograms: a workgroup's in shared memory, or the copies in scratch
  uint copy_stride;  // counters from one copy to the next
  uint flags;        // kAccumulate: the sum pass adds to the counts
  uint words;        // the zero pass: words to clear
  uint slice_bins;   // fast/replicated in shared memory: the bins of a grid row's slice
}
pc;

const uint kAccumulate = 1u;

// 0: invocations a workgroup; 1: vectors in flight an invocation (fast/replicated); 7: a
// workgroup's shared counters; 8: the mode, bits 0-1 the integer path (0 identity: width == bins,
// the bin is d; 1 narrow: d * bins / width in 32 bits; 2 wide: in 64 bits), bits 2-3 the
// aggregation (1: a run of equal bins an invocation, 2: a subgroup's equal bins), bit 4 the
// counters in shared memory, bit 5 u64 counts, bit 6 the counting into the copies in scratch,
// bit 7 the shared copies lane-banked (fast/replicated).
layout(constant_id = 0) const uint WG = 256;
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITEMS = 1;
layout(constant_id = 7) const uint SHARED_WORDS = 1;
layout(constant_id = 8) const uint MODE = 0;
const uint kPath = MODE & 3u;
const uint kAggregation = (MODE >> 2) & 3u;
const bool kPrivatized = (MODE & 16u) != 0u;
const bool kWideCounts = (MODE & 32u) != 0u;
const bool kIntoScratch = (MODE & 64u) != 0u;
const bool kLaneBanked = (MODE & 128u) != 0u;
const uint kCounterWords = kWideCounts ? 2u : 1u;

#ifdef XR_ADDRESS
#define IDX uint64_t
#define PC_N ((uint64_t(pc.n_high) << 32) | uint64_t(pc.n))
#else
#define IDX uint
#define PC_N pc.n
#endif

layout(set = 0, binding = 1) buffer Counts { uint counts[]; };
layout(set = 0, binding = 2) buffer Scratch { uint scratch[]; };
layout(set = 0, binding = 3) readonly buffer CountWord { uint count_word; };

// The call's samples: its n, or the count on the device, at most n (what the grid was made for).
IDX call_samples() { return pc.counted != 0u ? min(IDX(count_word), PC_N) : PC_N; }

// Adds c to counter `at` of counts (or of scratch), the carry into the high word for u64 counts.
void add_count(uint at, uint c) {
  if (kWideCounts) {
    const uint before = atomicAdd(counts[2u * at], c);
    if (before + c < before) atomicAdd(counts[2u * at + 1u], 1u);
  } else {
    atomicAdd(counts[at], c);
  }
}
void add_scratch(uint at, uint c) {
  if (kWideCounts) {
    const uint before = atomicAdd(scratch[2u * at], c);
    if (before + c < before) atomicAdd(scratch[2u * at + 1u], 1u);
  } else {
    atomicAdd(scratch[at], c);
  }
}

#ifndef HISTOGRAM_NO_SAMPLES

#if defined(S_U8)
#define SAMPLE uint
#define SAMPLE_BYTES 1u
#elif defined(S_U16)
#define SAMPLE uint
#define SAMPLE_BYTES 2u
#elif defined(S_I32) || defined(S_U32)
#define SAMPLE uint  // an i32's bits: its d below is taken modulo 2^32
#define SAMPLE_BYTES 4u
#elif defined(S_F32)
#define SAMPLE float
#define SAMPLE_BYTES 4u
#define FLOAT_SAMPLES
#elif defined(S_F64)
#define SAMPLE double
#define SAMPLE_BYTES 8u
#define FLOAT_SAMPLES
#else
#error "define S_U8, S_U16, S_I32, S_U32, S_F32 or S_F64"
#endif
const uint kPerVector = 16u / SAMPLE_BYTES;  // samples of one 16-byte load

#ifdef XR_ADDRESS
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer SampleWord {
  uint v;
};
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer SampleVector {
  uvec4 v;
};
uint sample_word(IDX w) { return SampleWord(pc.samples_at + w * 4ul).v; }
uvec4 sample_vector(IDX v) { return SampleVector(pc.samples_at + v * 16ul).v; }
#else
// One binding seen two ways: its words (a sample, the tail) and its 16-byte vectors.
layout(set = 0, binding = 0) readonly buffer SampleWords { uint sample_words[]; };
layout(set = 0, binding = 0) readonly buffer SampleVectors { uvec4 sample_vectors[]; };
uint sample_word(uint w) { return sample_words[w]; }
uvec4 sample_vector(uint v) { return sample_vectors[v]; }
#endif

// Sample k of a 16-byte vector (k a constant once unrolled).
SAMPLE vector_sample(uvec4 v, uint k) {
#if defined(S_U8)
  return (v[k / 4u] >> (8u * (k % 4u))) & 0xffu;
#elif defined(S_U16)
  return (v[k / 2u] >> (16u * (k % 2u))) & 0xffffu;
#elif defined(S_F32)
  return uintBitsToFloat(v[k]);
#elif defined(S_F64)
  return packDouble2x32(uvec2(v[2u * k], v[2u * k + 1u]));
#else
  return v[k];
#endif
}

// Sample i, from the word that holds it.
SAMPLE load_sample(IDX i) {
#if defined(S_U8)
  return (sample_word(i >> 2) >> (8u * (uint(i) & 3u))) & 0xffu;
#elif defined(S_U16)
  return (sample_word(i >> 1) >> (16u * (uint(i) & 1u))) & 0xffffu;
#elif defined(S_F32)
  return uintBitsToFloat(sample_word(i));
#elif defined(S_F64)
  return packDouble2x32(uvec2(sample_word(2u * i), sample_word(2u * i + 1u)));
#else
  return sample_word(i);
#endif
}

const int kNoBin = -1;  // a sample counted nowhere

#ifdef FLOAT_SAMPLES
#if defined(S_F64)
SAMPLE level(uint low, uint high) { return packDouble2x32(uvec2(low, high)); }
#else
SAMPLE level(uint low, uint high) { return uintBitsToFloat(low); }
#endif
// EvenBins's float rule: s in [lower, upper) (a NaN fails both), then (s - lower) * scale in the
// sample's type, each step rounded to nearest and never contracted into a multiply-add
// (`precise`), truncated; at `bins` or past it (and a NaN product, of an infinite scale at
// s == lower) counted nowhere. The product is at least 0 and below bins <= 2^24 where it is
// converted, so the conversion is exact and defined.
int bin_of(SAMPLE s) {
  const SAMPLE lower = level(pc.lower_low, pc.lower_high);
  const SAMPLE upper = level(pc.upper_low, pc.upper_high);
  const SAMPLE scale = level(pc.scale_low, pc.scale_high);
  if (!(s >= lower && s < upper)) return kNoBin;
  precise SAMPLE x = (s - lower) * scale;
  return x < SAMPLE(pc.bins) ? int(x) : kNoBin;
}
#else
// EvenBins's integer rule: d = s - lower modulo 2^32 (a sample below lower wraps past width - 1:
// every type's samples lie within 2^32 of its levels), in range when d <= width - 1, then
// d * bins / width on the plan's exact path.
int bin_of(uint s) {
  const uint d = s - pc.lower_low;
  if (d > pc.upper_low) return kNoBin;
  if (kPath == 0u) return int(d);
  if (kPath == 1u) return int(d * pc.bins / pc.scale_low);
  const uint64_t width = (uint64_t(pc.scale_high) << 32) | uint64_t(pc.scale_low);
  return int(uint64_t(d) * uint64_t(pc.bins) / width);
}
#endif

#endif  // HISTOGRAM_NO_SAMPLES
