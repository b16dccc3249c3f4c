// Shared by the histogram kernels, after common.cl and group.cl (the OpenCL counterpart of CUDA's
// kernels/histogram_bins.cuh): the sample's type from a define, the call's arguments, core's bin
// rule (xreduce/histogram.hpp, EvenBins) bit for bit over the constants the host computed by its
// formulas, and the counter adds every histogram kernel shares. The host builds with:
//   HS_U8 | HS_U16 | HS_I32 | HS_U32 | HS_F32 | HS_F64   the samples' type
//   XR_HIST_ATOM64   the device has cl_khr_int64_base_atomics: a u64 counter's add is one
//                    atom_add; without it, a 32-bit add to the low word and a carry into the high
//   XR_IDX64, WG, UNROLL   common.cl's: 64-bit sample indices, the work-group, vectors in flight
//
// The rule, per sample:
//   floats: s in [lower, upper) (a NaN fails both), (s - lower) * scale in the sample's type,
//     each step rounded to nearest (FP_CONTRACT OFF: never fused), truncated towards zero with
//     saturation (a NaN product, 0 * inf at s == lower, gives bin 0, as CUDA's __float2int_rz),
//     counted nowhere at `bins` or past it;
//   integers: d = s - lower taken modulo 2^32 from the sample's low 32 bits, in range when
//     d <= width - 1 (a sample below lower wraps past it: every type's samples lie within 2^32
//     of its levels), then d * bins / width by the host's path, each exact: identity (width ==
//     bins), 32-bit ((width - 1) * bins < 2^32) or 64-bit. The path is a uniform argument, one
//     build serving all three.
#pragma OPENCL FP_CONTRACT OFF

#if defined(HS_F64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#if defined(XR_HIST_ATOM64)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif

// A sample, and the 16-byte vector fast/replicated loads (VEC_N samples).
#if defined(HS_U8)
typedef uchar SAMPLE;
typedef uchar16 SAMPLE_VEC;
#define VEC_N 16u
#elif defined(HS_U16)
typedef ushort SAMPLE;
typedef ushort8 SAMPLE_VEC;
#define VEC_N 8u
#elif defined(HS_I32)
typedef int SAMPLE;
typedef int4 SAMPLE_VEC;
#define VEC_N 4u
#elif defined(HS_U32)
typedef uint SAMPLE;
typedef uint4 SAMPLE_VEC;
#define VEC_N 4u
#elif defined(HS_F32)
typedef float SAMPLE;
typedef float4 SAMPLE_VEC;
#define VEC_N 4u
#define HS_FLOAT
#elif defined(HS_F64)
typedef double SAMPLE;
typedef double2 SAMPLE_VEC;
#define VEC_N 2u
#define HS_FLOAT
#else
#error "define HS_U8, HS_U16, HS_I32, HS_U32, HS_F32 or HS_F64"
#endif

// The call's arguments, field for field the host's histogram::Args (cl_histogram_plan.hpp), all
// 32-bit words so that both sides lay them out alike.
typedef struct {
  uint n_lo, n_hi;  // the samples the launch is for
  uint counted;     // 1: the count word holds the call's samples (at most n)
  uint wide;        // u64 counters: two words each, low first
  uint bins;
  uint privatized;  // the atomic rungs: the counters in local memory
  uint copies;      // sub-histograms in local memory (fast/replicated), or copies in global
  uint stride;      // counters from one local sub-histogram to the next
  uint accumulate;  // the merge: added to the counts, else written
  uint bin_bits;    // bits that tell 0..bins apart (the ballots of subgroup/aggregated)
  uint offset;      // integers: lower's low 32 bits
  uint last;        // integers: width - 1
  uint width_lo, width_hi;
  uint path;  // integers: 0 identity, 1 32-bit, 2 64-bit
  uint lower_lo, lower_hi, upper_lo, upper_hi, scale_lo, scale_hi;  // floats: their bits
  uint unused;
} HistArgs;

// Every histogram kernel's arguments: the samples, where its adds go (the counts, or copies of
// them in scratch, `adds_at` words in), the counts themselves (the merge's output), the count on
// the device (Histogram::enqueue_indirect's; any word otherwise, never read), its local memory
// (sized by the host) and the arguments above. The adds and the counts may be one buffer.
#define HIST_KERNEL                                                                         \
  __kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void xr_main(                    \
      __global const SAMPLE* restrict samples, __global uint* adds_base, ulong adds_at,     \
      __global uint* counts, __global const uint* count_base, ulong count_at,               \
      __local uint* local_words, HistArgs a)
#define HIST_UNUSED_ARGS                                                                      \
  (void)samples, (void)adds_base, (void)adds_at, (void)counts, (void)count_base, (void)count_at, \
      (void)local_words

#define kNoBin (-1)

// A work-item's place among the launch's work-items, and their number, in IDX: made from the
// work-group's, since NVIDIA's get_global_id and get_global_size are 32-bit values that wrap (or
// turn negative) past 2^31 work-items, which the rungs of one work-item a sample reach.
IDX item_index(void) { return (IDX)get_group_id(0) * WG + (IDX)get_local_id(0); }
IDX item_count(void) { return (IDX)get_num_groups(0) * WG; }

// The samples of the call: the launch's, or the count on the device where it is fewer.
IDX samples_of_call(const HistArgs* a, __global const uint* count_base, ulong count_at) {
  const ulong n = (ulong)a->n_lo | ((ulong)a->n_hi << 32);
  if (a->counted != 0u) {
    const ulong counted = count_base[count_at];
    return (IDX)(counted < n ? counted : n);
  }
  return (IDX)n;
}

// The rule's constants in registers, read once before a kernel's loop.
#ifdef HS_FLOAT
#if defined(HS_F64)
#define LEVEL(lo, hi) as_double((ulong)(lo) | ((ulong)(hi) << 32))
#else
#define LEVEL(lo, hi) as_float(lo)
#endif
typedef struct {
  SAMPLE lower, upper, scale;
  int bins;
} Rule;
Rule rule_of(const HistArgs* a) {
  Rule r;
  r.lower = LEVEL(a->lower_lo, a->lower_hi);
  r.upper = LEVEL(a->upper_lo, a->upper_hi);
  r.scale = LEVEL(a->scale_lo, a->scale_hi);
  r.bins = (int)a->bins;
  return r;
}
int bin_of(SAMPLE s, const Rule r) {
  if (!(s >= r.lower && s < r.upper)) return kNoBin;
  const SAMPLE d = s - r.lower;
  const SAMPLE scaled = d * r.scale;
  const int bin = convert_int_sat_rtz(scaled);
  return bin < r.bins ? bin : kNoBin;
}
#else
typedef struct {
  uint offset, last, bins, path;
  ulong width;
} Rule;
Rule rule_of(const HistArgs* a) {
  Rule r;
  r.offset = a->offset;
  r.last = a->last;
  r.bins = a->bins;
  r.path = a->path;
  r.width = (ulong)a->width_lo | ((ulong)a->width_hi << 32);
  return r;
}
int bin_of(SAMPLE s, const Rule r) {
  const uint d = (uint)s - r.offset;  // modulo 2^32 for i32's negative samples
  if (d > r.last) return kNoBin;
  if (r.path == 0u) return (int)d;
  if (r.path == 1u) return (int)(d * r.bins / (uint)r.width);
  return (int)((ulong)d * (ulong)r.bins / r.width);
}
#endif

// Adds `c` to counter `bin` of `out` (u32, or u64 where `wide`), wrapping modulo its width as an
// accumulating caller's counts do.
void add_count(__global uint* out, uint bin, uint c, uint wide) {
  if (wide != 0u) {
#ifdef XR_HIST_ATOM64
    atom_add((volatile __global ulong*)out + bin, (ulong)c);
#else
    // Each add that wraps the low word carries one into the high word: exact once all landed.
    const uint before = atomic_add(out + 2u * bin, c);
    if (before + c < before) atomic_inc(out + 2u * bin + 1u);
#endif
  } else {
    atomic_add(out + bin, c);
  }
}

// Counter `b` of a copy in global memory, and its store (the merge: one writer a bin).
ulong load_counter(__global const uint* p, size_t b, uint wide) {
  return wide != 0u ? (ulong)p[2u * b] | ((ulong)p[2u * b + 1u] << 32) : (ulong)p[b];
}
void store_counter(__global uint* p, size_t b, ulong c, uint wide) {
  if (wide != 0u) {
    p[2u * b] = (uint)c;
    p[2u * b + 1u] = (uint)(c >> 32);
  } else {
    p[b] = (uint)c;
  }
}

// Zeroes `count` words of local memory (the caller's barrier follows: every work-item reaches it,
// `count` 0 or not).
void zero_local(__local uint* words, uint count) {
  for (uint w = (uint)get_local_id(0); w < count; w += WG) words[w] = 0u;
}
