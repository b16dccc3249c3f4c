// Shared by every reduce and scan shader: element type, operator and identity from compile-time
// defines (-DT_I32|-DT_U32|-DT_F32 and -DOP_SUM|-DOP_MIN|-DOP_MAX), the workgroup size as a
// specialization constant, the push constants (params.glsl) and typed access to the pass's
// three operands by device address.
//
// Operands: three buffers, src, dst and aux (bindings 0, 1, 2, or the device addresses pc.src,
// pc.dst, pc.aux: see below); pc.in_offset, pc.out_offset and pc.aux_offset index into them.
// Reduce: src = the input (or the scratch holding the last pass's partials), one partial per
// workgroup written at out_offset + workgroup of dst (scratch), aux = the single-pass ticket.
// Element indices are IDX wherever they can pass 2^32; workgroup and tile counts
// stay 32-bit.

#include "params.glsl"

#if defined(T_F32)
#define T float
#define T4 vec4
#define T_BYTES 4
#if defined(OP_SUM)
#define IDENTITY 0.0
#elif defined(OP_MIN)
#define IDENTITY uintBitsToFloat(0x7f800000u)  // +inf
#else
#define IDENTITY uintBitsToFloat(0xff800000u)  // -inf
#endif
#elif defined(T_U32) || (defined(T_I32) && defined(OP_SUM))
// i32 sums run in uint: the same bits, and uint addition wraps modulo 2^32 by definition.
#define T uint
#define T4 uvec4
#define T_BYTES 4
#if defined(OP_MIN)
#define IDENTITY 0xffffffffu
#else
#define IDENTITY 0u
#endif
#else  // i32 min/max compare as signed
#define T int
#define T4 ivec4
#define T_BYTES 4
#if defined(OP_MIN)
#define IDENTITY 0x7fffffff
#else
#define IDENTITY int(0x80000000u)
#endif
#endif

#if defined(OP_SUM)
#define OP(a, b) ((a) + (b))
#define SUBGROUP_OP subgroupAdd
#define SUBGROUP_INCLUSIVE_OP subgroupInclusiveAdd
#define SUBGROUP_EXCLUSIVE_OP subgroupExclusiveAdd
#elif defined(OP_MIN)
#define OP(a, b) min((a), (b))
#define SUBGROUP_OP subgroupMin
#define SUBGROUP_INCLUSIVE_OP subgroupInclusiveMin
#define SUBGROUP_EXCLUSIVE_OP subgroupExclusiveMin
#elif defined(OP_MAX)
#define OP(a, b) max((a), (b))
#define SUBGROUP_OP subgroupMax
#define SUBGROUP_INCLUSIVE_OP subgroupInclusiveMax
#define SUBGROUP_EXCLUSIVE_OP subgroupExclusiveMax
#else
#error "define OP_SUM, OP_MIN or OP_MAX"
#endif

// Workgroup size: a power of two, set by the host per variant (the counterpart of a CUDA
// template parameter); the device compiler folds every branch on it.
layout(constant_id = 0) const uint WG = 256;
layout(local_size_x_id = 0) in;

// The operands, two ways (the host compiles every shader both ways and picks per plan, as CUB
// picks 32- or 64-bit offsets):
//  - XR_ADDRESS: by device address (pc.src, pc.dst, pc.aux), for arrays past one storage-buffer
//    binding (maxStorageBufferRange) or past 2^31 elements;
//  - otherwise: by descriptor bindings 0, 1, 2 (the same buffers), 32-bit indices. Below the
//    binding limit it is as fast on an H200 and 2-3x faster on lavapipe, whose loads through
//    device addresses go element by element, and synchronization validation sees its accesses.
// Shaders index both alike, with IDX element indices (absolute: add pc.in_offset etc. yourself)
// and PC_N elements (params.glsl).
#ifdef XR_ADDRESS
// Scalar views are 4-byte aligned, vector views 16-byte aligned (the host keeps vector-read
// offsets multiples of 4 elements and every buffer 16-byte aligned).
layout(buffer_reference, std430, buffer_reference_align = 4) readonly restrict buffer SrcElem {
  T v;
};
layout(buffer_reference, std430, buffer_reference_align = 16) readonly restrict buffer SrcVec {
  T4 v;
};
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly restrict buffer DstElem {
  T v;
};
layout(buffer_reference, std430, buffer_reference_align = 16) writeonly restrict buffer DstVec {
  T4 v;
};
layout(buffer_reference, std430, buffer_reference_align = 4) buffer RwElem { T v; };

T src_at(IDX i) { return SrcElem(pc.src + i * T_BYTES).v; }
// Vector i4 = elements 4 * i4 .. 4 * i4 + 3 of the source.
T4 src4_at(IDX i4) { return SrcVec(pc.src + i4 * (4 * T_BYTES)).v; }
void dst_set(IDX i, T v) { DstElem(pc.dst + i * T_BYTES).v = v; }
void dst4_set(IDX i4, T4 v) { DstVec(pc.dst + i4 * (4 * T_BYTES)).v = v; }
// Element i of the destination, read and written (an lvalue).
#define DST(i) RwElem(pc.dst + IDX(i) * T_BYTES).v
#else
layout(set = 0, binding = 0) readonly restrict buffer SrcBuf { T src_data[]; };
layout(set = 0, binding = 0) readonly restrict buffer SrcBuf4 { T4 src_data4[]; };
layout(set = 0, binding = 1) writeonly restrict buffer DstBuf { T dst_data[]; };
layout(set = 0, binding = 1) writeonly restrict buffer DstBuf4 { T4 dst_data4[]; };
layout(set = 0, binding = 1) buffer DstRw { T dst_rw[]; };

T src_at(IDX i) { return src_data[uint(i)]; }
T4 src4_at(IDX i4) { return src_data4[uint(i4)]; }
void dst_set(IDX i, T v) { dst_data[uint(i)] = v; }
void dst4_set(IDX i4, T4 v) { dst_data4[uint(i4)] = v; }
#define DST(i) dst_rw[uint(i)]
#endif

#ifndef XR_CUSTOM_BINDINGS
// Element i of this pass's input, or the identity past its end (tails of any n).
T load_or_identity(IDX i) { return i < PC_N ? src_at(pc.in_offset + i) : T(IDENTITY); }
#endif

// Row-major workgroup index of a 2-D dispatch (used when one dimension cannot hold every
// workgroup: maxComputeWorkGroupCount[0] is 65535 on many devices).
uint linear_workgroup() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
