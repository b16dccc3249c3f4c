// Shared by the scan shaders, on top of common.glsl (type, operator, identity, WG, push
// constants, the operands by binding or by device address). Each pass reaches three operands:
//   src: the pass's source, elements from pc.in_offset (the input, or scratch)
//   dst: the pass's destination, elements from pc.out_offset (the output, or scratch)
//   aux: the pass's own scratch from pc.aux_offset (tile totals, the BIT, partials, look-back
//        status words)
// Workgroups: pc.groups carry data; the host may dispatch a 2-D grid of a few more (the 1-D
// limit is 65535 on many devices), which return at once. Element indices are 64-bit wherever
// they can pass 2^32, as n can; workgroup, tile and partial counts stay 32-bit, and so do offsets
// within a tile or chunk. Scratch offsets the host computes in 32 bits (pc.aux_offset plus a
// tile or workgroup count) stay 32-bit sums.
// The destination is the scan's output, of the element type (common.glsl: E, T); scratch (aux)
// holds accumulators. XR_WIDE_DST (the "_wide" tile modules, f16/bf16 only): the destination is
// scratch and holds accumulators, so a tile's outputs are rounded once, after their tile prefix
// is added (scan_uniform_add with kFromWide).
#define XR_CUSTOM_BINDINGS
#ifndef XR_WIDE_DST
#define XR_DST_ELEMENTS
#endif
#include "common.glsl"

const uint kExclusive = 1u;    // out[i] combines x[0..i-1] (identity at i = 0), else x[0..i]
const uint kWriteTotals = 2u;  // each tile writes its total at pc.aux, pc.aux_offset + tile
const uint kHasPrefix = 4u;    // fast/reduce-then-scan: pc.aux holds each chunk's prefix
const uint kNoWait = 8u;       // fast/decoupled-lookback experiment: never look back
const uint kFromWide = 16u;    // scan_uniform_add: the elements are accumulators in aux

bool exclusive_scan() { return (pc.flags & kExclusive) != 0u; }
bool writes_totals() { return (pc.flags & kWriteTotals) != 0u; }

// The GPU Gems 3 39.2.3 padding for 32 banks: one empty slot after every 32, so power-of-two
// strides fall on different banks. Shared arrays indexed through it hold N + N / 32 slots.
uint conflict_free(uint index) { return index + (index >> 5); }

// Element k (absolute: add pc.aux_offset) of the pass's scratch, typed T (the accumulator): read-only
// and write-only views keep the qualifiers the bindings have; AUX(k) reads and writes (an lvalue).
// Bandwidth-bound loops take a base computed once (src_base / dst_base of a tile's or a chunk's
// first element: an address, or an element index) and a 32-bit element (e) or 16-byte vector (v)
// offset from it. Vector bases must be 16-byte aligned (the host keeps offsets and chunks
// multiples of 4 elements). Loads widen elements to T, stores narrow them to the destination's
// type (common.glsl).
#ifdef XR_ADDRESS
layout(buffer_reference, std430, buffer_reference_align = T_BYTES) readonly buffer AuxIn { T v; };
layout(buffer_reference, std430, buffer_reference_align = T_BYTES) writeonly buffer AuxOut {
  T v;
};
layout(buffer_reference, std430, buffer_reference_align = T_BYTES) buffer AuxRwElem { T v; };
T aux_at(IDX k) { return AuxIn(pc.aux + k * T_BYTES).v; }
void aux_set(IDX k, T v) { AuxOut(pc.aux + k * T_BYTES).v = v; }
#define AUX(k) AuxRwElem(pc.aux + IDX(k) * T_BYTES).v

IDX src_base(IDX i) { return pc.src + i * E_BYTES; }
IDX dst_base(IDX i) { return pc.dst + i * D_BYTES; }
T load_src(IDX at, uint e) { return widen(SrcElem(at + IDX(e) * E_BYTES).v); }
T4 load_src4(IDX at, uint v) { return widen4(SrcVec(at + IDX(v) * (4 * E_BYTES)).v); }
void store_dst(IDX at, uint e, T x) { DstElem(at + IDX(e) * D_BYTES).v = to_dst(x); }
void store_dst4(IDX at, uint v, T4 x) { DstVec(at + IDX(v) * (4 * D_BYTES)).v = to_dst4(x); }
#else
layout(set = 0, binding = 2) readonly buffer AuxIn { T aux_in[]; };
layout(set = 0, binding = 2) writeonly buffer AuxOut { T aux_out[]; };
layout(set = 0, binding = 2) buffer AuxRw { T aux_rw[]; };
T aux_at(IDX k) { return aux_in[uint(k)]; }
void aux_set(IDX k, T v) { aux_out[uint(k)] = v; }
#define AUX(k) aux_rw[uint(k)]

IDX src_base(IDX i) { return i; }
IDX dst_base(IDX i) { return i; }
T load_src(IDX at, uint e) { return widen(src_data[uint(at) + e]); }
T4 load_src4(IDX at, uint v) { return widen4(src_data4[uint(at >> 2) + v]); }
void store_dst(IDX at, uint e, T x) { dst_data[uint(at) + e] = to_dst(x); }
void store_dst4(IDX at, uint v, T4 x) { dst_data4[uint(at >> 2) + v] = to_dst4(x); }
#endif

#if E_BYTES == 2 && defined(XR_DST_ELEMENTS)
// 16-bit elements eight to a 16-byte vector (a uvec4 of packed pairs, element 0 in the low half
// of x): a fast/* scan tile's lane takes one, as CUDA's lanes do (scan_vector_tile.glsl). Bases
// at multiples of 8 elements.
#ifdef XR_ADDRESS
layout(buffer_reference, std430, buffer_reference_align = 16) readonly restrict buffer SrcVec8 {
  uvec4 v;
};
layout(buffer_reference, std430, buffer_reference_align = 16) writeonly restrict buffer DstVec8 {
  uvec4 v;
};
uvec4 load_src8_bits(IDX at, uint v) { return SrcVec8(at + IDX(v) * 16).v; }
void store_dst8_bits(IDX at, uint v, uvec4 x) { DstVec8(at + IDX(v) * 16).v = x; }
#else
layout(set = 0, binding = 0) readonly restrict buffer SrcBuf8 { uvec4 src_data8[]; };
layout(set = 0, binding = 1) writeonly restrict buffer DstBuf8 { uvec4 dst_data8[]; };
uvec4 load_src8_bits(IDX at, uint v) { return src_data8[uint(at >> 3) + v]; }
void store_dst8_bits(IDX at, uint v, uvec4 x) { dst_data8[uint(at >> 3) + v] = x; }
#endif
#endif
