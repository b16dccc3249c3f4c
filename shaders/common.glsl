// Shared by every reduce and scan shader: element type from a compile-time define
// (-DT_I32|-DT_U32|-DT_F32|-DT_I64|-DT_U64|-DT_F64|-DT_F16|-DT_BF16), the operator and the
// workgroup size as specialization constants, the push constants (params.glsl) and typed access
// to the pass's three operands by binding or by device address.
//
// Operands: three buffers, src, dst and aux (bindings 0, 1, 2, or the device addresses pc.src,
// pc.dst, pc.aux: see below); pc.in_offset, pc.out_offset and pc.aux_offset index into them.
// Reduce: src = the input (or the scratch holding the last pass's partials), one partial per
// workgroup written at out_offset + workgroup of dst (scratch), aux = the single-pass ticket.
// Element indices are IDX wherever they can pass 2^32; workgroup and tile counts
// stay 32-bit.

#include "params.glsl"

// Element types. T is the accumulator: what every partial, shared slot, scratch (aux) element
// and subgroup operand holds; E is the element in memory (the pass's input, and a scan's output),
// widened to T on load and narrowed on store. They differ only for f16 and bf16, held as their
// 16 bits and accumulated in float (core's accumulator_of), so a result is rounded once, at the
// end. 64-bit integers in subgroup operations need shaderSubgroupExtendedTypes (the host checks;
// doubles are core in GL_KHR_shader_subgroup and Vulkan, with shaderFloat64).
// T_LOWEST and T_HIGHEST are the identities of max and min. Signed sums run in the signed type:
// SPIR-V's integer add (and its subgroup reductions) wrap modulo 2^N for either signedness, so
// i32 and i64 sums wrap as the u32 and u64 ones do.
#if defined(T_I64) || defined(T_U64)
#extension GL_EXT_shader_subgroup_extended_types_int64 : enable
#endif
#if defined(T_F16) || defined(T_BF16)
#extension GL_EXT_shader_16bit_storage : require
#define ACC_F32
#endif

#if defined(T_F32) || defined(ACC_F32)
#define T float
#define T4 vec4
#define T_BYTES 4
#define T_HIGHEST uintBitsToFloat(0x7f800000u)  // +inf
#define T_LOWEST uintBitsToFloat(0xff800000u)   // -inf
#elif defined(T_F64)
#define T double
#define T4 dvec4
#define T_BYTES 8
#define T_HIGHEST double(uintBitsToFloat(0x7f800000u))  // +inf
#define T_LOWEST double(uintBitsToFloat(0xff800000u))   // -inf
#elif defined(T_U32)
#define T uint
#define T4 uvec4
#define T_BYTES 4
#define T_HIGHEST 0xffffffffu
#define T_LOWEST 0u
#elif defined(T_I32)
#define T int
#define T4 ivec4
#define T_BYTES 4
#define T_HIGHEST 0x7fffffff
#define T_LOWEST int(0x80000000u)
#elif defined(T_U64)
#define T uint64_t
#define T4 u64vec4
#define T_BYTES 8
#define T_HIGHEST 0xfffffffffffffffful
#define T_LOWEST 0ul
#elif defined(T_I64)
#define T int64_t
#define T4 i64vec4
#define T_BYTES 8
#define T_HIGHEST 0x7fffffffffffffffl
#define T_LOWEST int64_t(0x8000000000000000ul)
#else
#error "define T_I32, T_U32, T_F32, T_I64, T_U64, T_F64, T_F16 or T_BF16"
#endif

#if defined(ACC_F32)
// Held as uint16_t in buffers only and converted at once to 32 bits (16-bit storage, no 16-bit
// arithmetic: no shaderInt16 needed).
// A vector of four is a uvec2 of packed pairs (element 0 in the low half of x), one 64-bit access
// whatever a compiler makes of u16vec4, which is faster in both fast/* scans. The fast/* scan
// tiles take 8 to a lane, one 16-byte uvec4 (scan_common.glsl, scan_vector_tile.glsl). The f16
// look-back's extra cost over bf16's is narrow_bits below (docs/results/H200/compiled; the runs
// are in docs/results/H200/tuning-notes.md); packHalf2x16 would need float controls' RTE mode to
// be exact.
#define E uint16_t
#define E4 uvec2
#define E_BYTES 2
#if defined(T_F16)
// Exact: every binary16 value is a float.
float widen_bits(uint h) { return unpackHalf2x16(h).x; }
// Round to nearest even by integer arithmetic (a float-to-half conversion may round toward zero
// on some devices), with subnormals, overflow to infinity and quiet NaN.
uint narrow_bits(float f) {
  const uint u = floatBitsToUint(f);
  const uint sign = (u >> 16) & 0x8000u;
  const uint a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return sign | 0x7e00u;   // NaN
  if (a >= 0x477ff000u) return sign | 0x7c00u;  // 65520 and up round to infinity
  if (a <= 0x33000000u) return sign;            // up to 2^-25 rounds to zero (even)
  if (a < 0x38800000u) {  // a subnormal half: the quantum is 2^-24
    const uint m = (a & 0x7fffffu) | 0x800000u;  // a = m * 2^(e - 150)
    const uint shift = 126u - (a >> 23);         // 14 .. 24
    const uint q = m >> shift, rest = m & ((1u << shift) - 1u), half_unit = 1u << (shift - 1u);
    return sign | (q + uint(rest > half_unit || (rest == half_unit && (q & 1u) != 0u)));
  }
  const uint r = a - 0x38000000u;  // rebias the exponent from 127 to 15
  return sign | ((r + 0xfffu + ((r >> 13) & 1u)) >> 13);
}
#else  // bf16: the top half of a float
float widen_bits(uint h) { return uintBitsToFloat(h << 16); }
uint narrow_bits(float f) {
  const uint u = floatBitsToUint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (u >> 16) | 0x40u;  // quiet NaN
  return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;  // nearest even; overflow to infinity
}
#endif
vec4 widen4_bits(uvec2 h) {
  return vec4(widen_bits(h.x & 0xffffu), widen_bits(h.x >> 16), widen_bits(h.y & 0xffffu),
              widen_bits(h.y >> 16));
}
uvec2 narrow4_bits(vec4 f) {
  return uvec2(narrow_bits(f.x) | (narrow_bits(f.y) << 16),
               narrow_bits(f.z) | (narrow_bits(f.w) << 16));
}
#define widen(h) widen_bits(uint(h))
#define widen4(h) widen4_bits(h)
#define narrow(f) uint16_t(narrow_bits(f))
#define narrow4(f) narrow4_bits(f)
#else
#define E T
#define E4 T4
#define E_BYTES T_BYTES
#define widen(x) (x)
#define widen4(x) (x)
#define narrow(x) (x)
#define narrow4(x) (x)
#endif

// What the pass's destination holds: a scan's output (XR_DST_ELEMENTS, the element type) or a
// reduce's partials (the accumulator).
#ifdef XR_DST_ELEMENTS
#define D E
#define D4 E4
#define D_BYTES E_BYTES
#define to_dst(x) narrow(x)
#define to_dst4(x) narrow4(x)
#define from_dst(x) widen(x)
#else
#define D T
#define D4 T4
#define D_BYTES T_BYTES
#define to_dst(x) (x)
#define to_dst4(x) (x)
#define from_dst(x) (x)
#endif

// The operator: specialization constant 3, core's Op order (0 sum, 1 min, 2 max), set by the
// host per pipeline. One module serves the three operators (a third of the modules to build); the
// device compiler folds every branch on XR_OP when it creates the pipeline, as it folded the -D
// define the operator was before.
layout(constant_id = 3) const uint XR_OP = 0;
const uint kOpSum = 0u, kOpMin = 1u, kOpMax = 2u;

T op_combine(T a, T b) { return XR_OP == kOpSum ? a + b : XR_OP == kOpMin ? min(a, b) : max(a, b); }
T4 op_combine(T4 a, T4 b) {
  return XR_OP == kOpSum ? a + b : XR_OP == kOpMin ? min(a, b) : max(a, b);
}
T op_identity() { return XR_OP == kOpSum ? T(0) : XR_OP == kOpMin ? T(T_HIGHEST) : T(T_LOWEST); }
#define OP(a, b) op_combine((a), (b))
#define IDENTITY op_identity()
// Macros, not functions: a shader names the subgroup extension it uses, and an unused macro
// needs none.
#define SUBGROUP_OP(v) \
  (XR_OP == kOpSum ? subgroupAdd(v) : XR_OP == kOpMin ? subgroupMin(v) : subgroupMax(v))
#define SUBGROUP_INCLUSIVE_OP(v)                                     \
  (XR_OP == kOpSum   ? subgroupInclusiveAdd(v)                        \
   : XR_OP == kOpMin ? subgroupInclusiveMin(v)                        \
                     : subgroupInclusiveMax(v))
#define SUBGROUP_EXCLUSIVE_OP(v)                                     \
  (XR_OP == kOpSum   ? subgroupExclusiveAdd(v)                        \
   : XR_OP == kOpMin ? subgroupExclusiveMin(v)                        \
                     : subgroupExclusiveMax(v))

// Workgroup size: a power of two, set by the host per variant (the counterpart of a CUDA
// template parameter); the device compiler folds every branch on it.
layout(constant_id = 0) const uint WG = 256;
layout(local_size_x_id = 0) in;

// The operands, two ways (the host compiles every shader both ways and picks per plan, as CUB
// picks 32- or 64-bit offsets):
//  - XR_ADDRESS: by device address (pc.src, pc.dst, pc.aux), for arrays past one storage-buffer
//    binding (maxStorageBufferRange) or past 2^31 elements;
//  - otherwise: by descriptor bindings 0, 1, 2 (the same buffers), 32-bit indices. Below the
//    binding limit it is as fast on a GPU and faster on lavapipe, whose loads through device
//    addresses go element by element, and synchronization validation sees its accesses.
// Shaders index both alike, with IDX element indices (absolute: add pc.in_offset etc. yourself)
// and PC_N elements (params.glsl).
#ifdef XR_ADDRESS
// Scalar views are aligned to their element, vector views to the vector (the host keeps
// vector-read offsets multiples of 4 elements and every buffer 32-byte aligned).
layout(buffer_reference, std430, buffer_reference_align = E_BYTES) readonly restrict buffer
SrcElem {
  E v;
};
layout(buffer_reference, std430, buffer_reference_align = 4 * E_BYTES) readonly restrict buffer
SrcVec {
  E4 v;
};
layout(buffer_reference, std430, buffer_reference_align = D_BYTES) writeonly restrict buffer
DstElem {
  D v;
};
layout(buffer_reference, std430, buffer_reference_align = 4 * D_BYTES) writeonly restrict buffer
DstVec {
  D4 v;
};
layout(buffer_reference, std430, buffer_reference_align = D_BYTES) buffer RwElem { D v; };

T src_at(IDX i) { return widen(SrcElem(pc.src + i * E_BYTES).v); }
// Vector i4 = elements 4 * i4 .. 4 * i4 + 3 of the source.
T4 src4_at(IDX i4) { return widen4(SrcVec(pc.src + i4 * (4 * E_BYTES)).v); }
void dst_set(IDX i, T v) { DstElem(pc.dst + i * D_BYTES).v = to_dst(v); }
void dst4_set(IDX i4, T4 v) { DstVec(pc.dst + i4 * (4 * D_BYTES)).v = to_dst4(v); }
T dst_get(IDX i) { return from_dst(RwElem(pc.dst + i * D_BYTES).v); }
#else
layout(set = 0, binding = 0) readonly restrict buffer SrcBuf { E src_data[]; };
layout(set = 0, binding = 0) readonly restrict buffer SrcBuf4 { E4 src_data4[]; };
layout(set = 0, binding = 1) writeonly restrict buffer DstBuf { D dst_data[]; };
layout(set = 0, binding = 1) writeonly restrict buffer DstBuf4 { D4 dst_data4[]; };
layout(set = 0, binding = 1) buffer DstRw { D dst_rw[]; };

T src_at(IDX i) { return widen(src_data[uint(i)]); }
T4 src4_at(IDX i4) { return widen4(src_data4[uint(i4)]); }
void dst_set(IDX i, T v) { dst_data[uint(i)] = to_dst(v); }
void dst4_set(IDX i4, T4 v) { dst_data4[uint(i4)] = to_dst4(v); }
T dst_get(IDX i) { return from_dst(dst_rw[uint(i)]); }
#endif

#ifndef XR_CUSTOM_BINDINGS
// Element i of this pass's input, or the identity past its end (tails of any n).
T load_or_identity(IDX i) { return i < PC_N ? src_at(pc.in_offset + i) : T(IDENTITY); }
#endif

// Row-major workgroup index of a 2-D dispatch (used when one dimension cannot hold every
// workgroup: maxComputeWorkGroupCount[0] is 65535 on many devices).
uint linear_workgroup() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
