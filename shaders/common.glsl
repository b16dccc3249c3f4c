// Shared by every reduce and scan shader: element type, operator and identity from compile-time
// defines (-DT_I32|-DT_U32|-DT_F32 and -DOP_SUM|-DOP_MIN|-DOP_MAX), the workgroup size as a
// specialization constant, the push constants and the reduce shaders' default bindings.
//
// Reduce bindings (one pipeline layout for every shader): 0 = input elements, 1 = scratch
// (partials and the result), 2 = the single-pass ticket. Push constants: n elements to read
// starting at element in_offset of binding 0; one partial per workgroup written at out_offset +
// workgroup of binding 1; `groups` workgroups carry data (a 2-D dispatch may launch a few more).
// The last four push constants belong to the scan shaders (scan_common.glsl).

#if defined(T_F32)
#define T float
#define T4 vec4
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
#if defined(OP_MIN)
#define IDENTITY 0xffffffffu
#else
#define IDENTITY 0u
#endif
#else  // i32 min/max compare as signed
#define T int
#define T4 ivec4
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

layout(push_constant) uniform Params {
  uint n;
  uint in_offset;
  uint out_offset;
  uint groups;
  uint aux_offset;  // scan: first element of binding 2 this pass uses
  uint flags;       // scan: kExclusive | kWriteTotals | kHasPrefix (scan_common.glsl)
  uint param;       // scan: the pass's own parameter (BIT level, chunk, counter index)
  uint limit;       // scan: the look-back's polls before it falls back
}
pc;

#ifndef XR_CUSTOM_BINDINGS
layout(set = 0, binding = 0) readonly buffer Input { T in_data[]; };
layout(set = 0, binding = 1) writeonly buffer Partials { T out_data[]; };

// Element i of this pass's input, or the identity past its end (tails of any n).
T load_or_identity(uint i) { return i < pc.n ? in_data[pc.in_offset + i] : T(IDENTITY); }
#endif

// Row-major workgroup index of a 2-D dispatch (used when one dimension cannot hold every
// workgroup: maxComputeWorkGroupCount[0] is 65535 on many devices).
uint linear_workgroup() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
