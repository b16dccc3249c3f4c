// Shared by every built-in kernel (the OpenCL counterpart of shaders/common.glsl): the element
// and accumulator types, the operator and its identity, the workgroup size, the index type and
// the one argument list every kernel takes. The host prepends this file (and group.cl) to each
// kernel's source and builds it with -D options (opencl_backend/library/cl_programs.cpp):
//   T_I32 | T_U32 | T_F32 | T_I64 | T_U64 | T_F64 | T_F16 | T_BF16   the element type
//   XR_OP=0|1|2            core's Op order: sum, min, max
//   WG=256                 work-items per work-group, a power of two (reqd_work_group_size)
//   UNROLL=4               a kernel's own count (vectors per work-item, items per thread)
//   XR_IDX64               64-bit element indices (n past 2^31), else 32-bit
//   XR_DST_ELEMENTS        the destination holds elements (a scan's output), else accumulators
//   XR_SG_PTX              sub-groups are NVIDIA warps, reached by inline PTX (group.cl)
//
// T is the accumulator: what partials, local slots and scratch (aux) hold; E the element in
// memory. They differ for f16 (stored as half, converted by vload_half/vstore_half_rte, core
// OpenCL: no cl_khr_fp16 needed) and bf16 (ushort bits), both accumulated in float and rounded
// once at the end.
#if defined(T_F64) || defined(T_I64) || defined(T_U64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif

#if defined(T_F16) || defined(T_BF16)
#define ACC_F32
#endif

#if defined(T_F32) || defined(ACC_F32)
#define T float
#define T4 float4
#define T_BYTES 4
#define T_HIGHEST INFINITY
#define T_LOWEST (-INFINITY)
#elif defined(T_F64)
#define T double
#define T4 double4
#define T_BYTES 8
#define T_HIGHEST ((double)INFINITY)
#define T_LOWEST ((double)-INFINITY)
#elif defined(T_U32)
#define T uint
#define T4 uint4
#define T_BYTES 4
#define T_HIGHEST 0xffffffffu
#define T_LOWEST 0u
#elif defined(T_I32)
#define T int
#define T4 int4
#define T_BYTES 4
#define T_HIGHEST INT_MAX
#define T_LOWEST INT_MIN
#elif defined(T_U64)
#define T ulong
#define T4 ulong4
#define T_BYTES 8
#define T_HIGHEST 0xfffffffffffffffful
#define T_LOWEST 0ul
#elif defined(T_I64)
#define T long
#define T4 long4
#define T_BYTES 8
#define T_HIGHEST LONG_MAX
#define T_LOWEST LONG_MIN
#else
#error "define T_I32, T_U32, T_F32, T_I64, T_U64, T_F64, T_F16 or T_BF16"
#endif

#ifdef XR_IDX64
typedef ulong IDX;
#else
typedef uint IDX;
#endif

// The operator, folded at build time: functions, not macros, so each operand is evaluated once
// (a min/max macro names its operands twice, and a shuffle evaluated twice under a branch only
// some lanes take deadlocks a warp). Signed sums run in the unsigned type: OpenCL C leaves a
// signed overflow undefined, and core's integer sums wrap modulo 2^N.
#if XR_OP == 0
#if defined(T_I32)
T xr_op(T a, T b) { return as_int(as_uint(a) + as_uint(b)); }
T4 xr_op4(T4 a, T4 b) { return as_int4(as_uint4(a) + as_uint4(b)); }
#elif defined(T_I64)
T xr_op(T a, T b) { return as_long(as_ulong(a) + as_ulong(b)); }
T4 xr_op4(T4 a, T4 b) { return as_long4(as_ulong4(a) + as_ulong4(b)); }
#else
T xr_op(T a, T b) { return a + b; }
T4 xr_op4(T4 a, T4 b) { return a + b; }
#endif
#define IDENTITY ((T)0)
#elif XR_OP == 1
T xr_op(T a, T b) { return b < a ? b : a; }
T4 xr_op4(T4 a, T4 b) { return select(a, b, b < a); }
#define IDENTITY ((T)T_HIGHEST)
#elif XR_OP == 2
T xr_op(T a, T b) { return b > a ? b : a; }
T4 xr_op4(T4 a, T4 b) { return select(a, b, b > a); }
#define IDENTITY ((T)T_LOWEST)
#else
#error "XR_OP is 0 (sum), 1 (min) or 2 (max)"
#endif
#define OP(a, b) xr_op((a), (b))
#define OP4(a, b) xr_op4((a), (b))

// Four elements at once, as one vector of type V at its own alignment: VLOAD4(V, p, i4) reads
// elements 4 i4 .. 4 i4 + 3 of p, VSTORE4(V, p, i4, x) writes them. The host keeps every vector's
// first element a multiple of four from a buffer's base (aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN),
// so the vector pointer is aligned, which is what a single wide access needs; vload4/vstore4
// promise only an element's alignment, so a compiler that cannot prove more splits them into
// scalar accesses. XR_VLOAD (the host's XR_CL_VECTOR_LOADS=vload) keeps vload4/vstore4: the
// experiment that measures the difference (bench/gpu/opencl/run;
// docs/results/H100/opencl/why/loads-diff.md): vector pointers are faster, most for 8-byte scans.
#ifdef XR_VLOAD
#define VLOAD4(V, p, i4) vload4((i4), (p))
#define VSTORE4(V, p, i4, x) vstore4((x), (i4), (p))
#else
#define VLOAD4(V, p, i4) (((__global const V*)(p))[i4])
#define VSTORE4(V, p, i4, x) (((__global V*)(p))[i4] = (x))
#endif

// Elements in memory. LOAD(p, i) widens element i of p to T; LOAD4(p, i4) the four elements
// 4 i4 .. 4 i4 + 3; STORE(p, i, x) narrows x to the element type. Vectors are aligned to their
// size: the host keeps vector offsets multiples of four elements.
#if defined(T_F16)
#define E half
#define E_BYTES 2
#define LOAD(p, i) vload_half((i), (p))
#define LOAD4(p, i4) vload_half4((i4), (p))
#define STORE(p, i, x) vstore_half_rte((x), (i), (p))
#define STORE4(p, i4, x) vstore_half4_rte((x), (i4), (p))
#elif defined(T_BF16)
#define E ushort
#define E_BYTES 2
float bf16_widen(ushort h) { return as_float((uint)h << 16); }
ushort bf16_narrow(float f) {
  const uint u = as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (ushort)((u >> 16) | 0x40u);  // quiet NaN
  return (ushort)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);  // nearest even; overflow to inf
}
float4 bf16_widen4(ushort4 h) { return as_float4(convert_uint4(h) << 16); }
ushort4 bf16_narrow4(float4 f) {
  return (ushort4)(bf16_narrow(f.x), bf16_narrow(f.y), bf16_narrow(f.z), bf16_narrow(f.w));
}
#define LOAD(p, i) bf16_widen((p)[i])
#define LOAD4(p, i4) bf16_widen4(VLOAD4(ushort4, p, i4))
#define STORE(p, i, x) ((p)[i] = bf16_narrow(x))
#define STORE4(p, i4, x) VSTORE4(ushort4, p, i4, bf16_narrow4(x))
#else
#define E T
#define E_BYTES T_BYTES
#define LOAD(p, i) ((p)[i])
#define LOAD4(p, i4) VLOAD4(T4, p, i4)
#define STORE(p, i, x) ((p)[i] = (x))
#define STORE4(p, i4, x) VSTORE4(T4, p, i4, x)
#endif

// What the pass's destination holds: a scan's output (elements) or a reduce's partials and the
// tiled scans' wide outputs (accumulators).
#ifdef XR_DST_ELEMENTS
#define D E
#define DST_STORE(p, i, x) STORE(p, i, x)
#define DST_STORE4(p, i4, x) STORE4(p, i4, x)
#define DST_LOAD(p, i) LOAD(p, i)
#else
#define D T
#define DST_STORE(p, i, x) ((p)[i] = (x))
#define DST_STORE4(p, i4, x) VSTORE4(T4, p, i4, x)
#define DST_LOAD(p, i) ((p)[i])
#endif

#ifndef WG
#error "WG (work-items per work-group) is set by the host"
#endif

// Every built-in kernel's arguments, in this order (the host's Params,
// opencl_backend/library/cl_params.hpp): the pass's three operands, then its sizes.
//   src  the pass's source: the input, or scratch holding the last pass's partials
//   dst  the pass's destination: a partial per work-group at out_offset + group, or the output
//   aux  the pass's own scratch: ticket, tile totals, BIT, status words
//   n          elements this pass reads (probes: 16-byte vectors)
//   in_offset  first element of src this pass uses
//   out_offset first element of dst this pass writes
//   groups     work-groups that carry data
//   aux_offset scan: first element of aux this pass uses
//   flags      scan: kExclusive | kWriteTotals | kHasPrefix | kNoWait | kFromWide
//   param      scan: the pass's own parameter (BIT level, chunk, ticket word)
//   limit      scan: the look-back's polls before it falls back
#define XR_KERNEL                                                                        \
  __kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void xr_main(                 \
      __global const E* restrict src, __global D* restrict dst, __global T* aux,        \
      ulong n, uint in_offset, uint out_offset, uint groups, uint aux_offset, uint flags, \
      uint param, uint limit)
// Arguments a kernel does not use; keeps every kernel's signature the same.
#define XR_UNUSED_ARGS                                                               \
  (void)src, (void)dst, (void)aux, (void)n, (void)in_offset, (void)out_offset,      \
      (void)groups, (void)aux_offset, (void)flags, (void)param, (void)limit

// Element i of this pass's input, or the identity past its end (tails of any n).
#define LOAD_OR_IDENTITY(i) ((i) < (IDX)n ? LOAD(src, in_offset + (i)) : IDENTITY)
