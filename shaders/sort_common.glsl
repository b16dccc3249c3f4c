// Shared by every sort shader: the key's width from a compile-time define (K16, K32, K64: one
// module per width, the key's kind and order a specialization constant), the push constants of a
// sort pass, its five operands by binding, the key codec of core's total order
// (xreduce/sort_keys.hpp) and the workgroup scans in shared memory.
//
// Operands: binding 0 the keys a pass reads, 1 the keys it writes, 2 and 3 the values (pairs:
// the PAIRS modules, of u32 values, or with VALUE64 of u64 values as two words, low then high,
// so that no module needs 64-bit integers for its values), 4 the sort's words in scratch (histograms, bins, counters, status), or
// the bitonic items where a module defines SORT_ITEMS (sort_bitonic.glsl declares them; those
// modules rank no digits, so they take neither the words nor the digit scan). The host binds the
// caller's arrays or the alternate arrays in scratch per pass. With XR_ADDRESS (the modules the
// host picks for arrays past one binding, as the scan's), the keys and values are reached by
// device address instead (the push constants' first four 64-bit words), and the sort takes core's
// wide form (xreduce/sort_passes.hpp): IDX indices and PC_N keys in 64 bits, every count that may
// pass 2^32 (histograms, bins, reduce-then-scan's table) two words of `words`, low then high; a
// tile's own counts stay 32-bit. The words stay at binding 4. Shaders reach the arrays through
// load_key, store_key, load_value and store_value_word, and the counts through load_count, store_count
// and add_count, alone.
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_memory_scope_semantics : require
#if defined(K64)
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#elif defined(K16)
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#endif
#ifdef XR_ADDRESS
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#endif

// The push constants (the host's SortPush, vulkan_backend/library/vk_sort_plan.hpp, byte for
// byte). Word offsets are into `words` (binding 4).
layout(push_constant) uniform SortParams {
#ifdef XR_ADDRESS
  uint64_t keys_in_at;  // the operands by address (the host's SortAddressPush)
  uint64_t keys_out_at;
  uint64_t values_in_at;
  uint64_t values_out_at;
#endif
  // core's SortArgs, field for field (xreduce/kernel/sort_args.h).
#define XR_SORT_ARG(name, initial) uint name;
#include "xreduce/kernel/sort_args.h"
#undef XR_SORT_ARG
}
pc;

const uint kRadix = 256;

// The workgroup size; the key's kind and order: bits 0-1 unsigned (0), signed (1) or float (2),
// bit 2 descending.
layout(constant_id = 0) const uint WG = 256;
layout(local_size_x_id = 0) in;
layout(constant_id = 5) const uint SORT_MODE = 0;
const uint kKind = SORT_MODE & 3u;
const bool kDescending = (SORT_MODE & 4u) != 0u;

#if defined(K64)
#define KEY uint64_t  // a key as stored
#define BITS uint64_t  // its bits in registers
#define KEY_BITS 64
#define KEY_WORDS 2  // 32-bit words of shared memory a key takes
#define KEY_BYTES 8
#elif defined(K32)
#define KEY uint
#define BITS uint
#define KEY_BITS 32
#define KEY_WORDS 1
#define KEY_BYTES 4
#elif defined(K16)
#define KEY uint16_t
#define BITS uint
#define KEY_BITS 16
#define KEY_WORDS 1
#define KEY_BYTES 2
#else
#error "define K16, K32 or K64"
#endif

#ifdef VALUE64
#define VALUE uvec2  // a u64 value: its low word, then its high word
#define VALUE_BYTES 8
#else
#define VALUE uint
#define VALUE_BYTES 4
#endif
const uint kValueWords = VALUE_BYTES / 4;
// Word w of a value (the low one first).
#ifdef VALUE64
uint value_word(VALUE v, uint w) { return v[w]; }
#else
uint value_word(VALUE v, uint w) { return v; }
#endif

#ifdef XR_ADDRESS
#define IDX uint64_t
#define PC_N ((uint64_t(pc.n_high) << 32) | uint64_t(pc.n))
const uint kCountWords = 2;
#else
#define IDX uint
#define PC_N pc.n
const uint kCountWords = 1;
#endif

#ifdef XR_ADDRESS
layout(buffer_reference, std430, buffer_reference_align = KEY_BYTES) readonly restrict buffer
KeyIn {
  KEY v;
};
layout(buffer_reference, std430, buffer_reference_align = KEY_BYTES) writeonly restrict buffer
KeyOut {
  KEY v;
};
BITS load_key(IDX i) { return BITS(KeyIn(pc.keys_in_at + i * KEY_BYTES).v); }
void store_key(IDX i, BITS k) { KeyOut(pc.keys_out_at + i * KEY_BYTES).v = KEY(k); }
#ifdef PAIRS
layout(buffer_reference, std430, buffer_reference_align = VALUE_BYTES) readonly restrict buffer
ValueIn {
  VALUE v;
};
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly restrict buffer ValueOut {
  uint v;
};
VALUE load_value(IDX i) { return ValueIn(pc.values_in_at + i * VALUE_BYTES).v; }
// Word w of the output's value i: values go out a word at a time (sort_tile.glsl).
void store_value_word(IDX i, uint w, uint word) {
  ValueOut(pc.values_out_at + (i * kValueWords + w) * 4u).v = word;
}
#endif
#else
layout(set = 0, binding = 0) readonly restrict buffer KeysIn { KEY keys_in[]; };
layout(set = 0, binding = 1) writeonly restrict buffer KeysOut { KEY keys_out[]; };
BITS load_key(uint i) { return BITS(keys_in[i]); }
void store_key(uint i, BITS k) { keys_out[i] = KEY(k); }
#ifdef PAIRS
layout(set = 0, binding = 2) readonly restrict buffer ValuesIn { VALUE values_in[]; };
layout(set = 0, binding = 3) writeonly restrict buffer ValuesOut { uint values_out[]; };
VALUE load_value(uint i) { return values_in[i]; }
void store_value_word(uint i, uint w, uint word) { values_out[i * kValueWords + w] = word; }
#endif
#endif
// The count on the device at binding 5 (the caller's, for Sort::record_indirect; any word of
// scratch otherwise, never read): a counted pass sorts that many keys, at most PC_N (the capacity
// its grids were launched for). Every pass takes its keys from sort_n().
layout(set = 0, binding = 5) readonly restrict buffer SortCount { uint sort_count; };
IDX sort_n() { return pc.counted != 0u ? min(IDX(sort_count), PC_N) : PC_N; }
// reduce-then-scan: the tiles of a block's chunk when n keys are shared over pc.blocks.
uint chunk_tiles(IDX n, uint tile) {
  const uint tiles = uint((n + tile - 1u) / tile);
  return (tiles + pc.blocks - 1u) / pc.blocks;
}

#ifndef SORT_ITEMS
// Shared between workgroups through atomics (the look-back's status, the counters); coherent as
// the GLSL450 memory model with explicit scopes needs.
layout(set = 0, binding = 4) coherent buffer Words { uint words[]; };
#endif

BITS key_bits(IDX i) { return load_key(i); }

// What the sort compares a key by (core's sort_bits): the ordered bits, flipped for descending,
// either float zero as the top bit alone.
BITS sort_bits(BITS k) {
  const BITS top = BITS(1) << (KEY_BITS - 1);
#if KEY_BITS == 16
  const BITS all = 0xffffu;
#else
  const BITS all = ~BITS(0);
#endif
  BITS o = k;
  if (kKind == 1u) o = k ^ top;
  if (kKind == 2u) o = (k & top) != BITS(0) ? ~k & all : k ^ top;
  if (kDescending) o = ~o & all;
  if (kKind == 2u && o == top - BITS(1)) o = top;
  return o;
}

uint digit_at(BITS sorted, uint shift, uint width) {
  return uint(sorted >> shift) & ((1u << width) - 1u);
}

#ifndef SORT_ITEMS
// Count c (two words in the wide form) of the words at word offset `at`.
IDX load_count(uint at) {
#ifdef XR_ADDRESS
  return uint64_t(words[at]) | (uint64_t(words[at + 1u]) << 32);
#else
  return words[at];
#endif
}
void store_count(uint at, IDX c) {
  words[at] = uint(c);
#ifdef XR_ADDRESS
  words[at + 1u] = uint(c >> 32);
#endif
}
// Adds `c` to the count at `at` atomically: in the wide form each add that wraps the low word
// carries one into the high word, so the pair is exact once every add has landed.
void add_count(uint at, uint c) {
#ifdef XR_ADDRESS
  const uint before = atomicAdd(words[at], c);
  if (before + c < before) atomicAdd(words[at + 1u], 1u);
#else
  atomicAdd(words[at], c);
#endif
}

#if defined(XR_ADDRESS) && defined(SORT_SHARED_SCAN)
// The exclusive scan of 64-bit counts over the whole workgroup, in shared memory (Hillis &
// Steele): once per sort pass, where subgroup arithmetic on 64-bit integers is not assumed.
shared uint64_t wide_scan[WG];
uint64_t exclusive_over_workgroup_wide(uint64_t v) {
  const uint i = gl_LocalInvocationIndex;
  wide_scan[i] = v;
  barrier();
  for (uint d = 1u; d < WG; d <<= 1) {
    const uint64_t add = i >= d ? wide_scan[i - d] : 0ul;
    barrier();
    wide_scan[i] += add;
    barrier();
  }
  return wide_scan[i] - v;
}
#endif

// The exclusive scan of `v` over the whole workgroup, every invocation calling, in shared memory
// (Hillis & Steele): no subgroup operation, for the passes that run once per sort pass and for
// the ranking by counting (SORT_RANK_COUNT).
#if (defined(SORT_SHARED_SCAN) && !defined(XR_ADDRESS)) || defined(SORT_RANK_COUNT)
shared uint workgroup_scan[WG];
uint exclusive_over_workgroup(uint v) {
  const uint i = gl_LocalInvocationIndex;
  workgroup_scan[i] = v;
  barrier();
  for (uint d = 1u; d < WG; d <<= 1) {
    const uint add = i >= d ? workgroup_scan[i - d] : 0u;
    barrier();
    workgroup_scan[i] += add;
    barrier();
  }
  return workgroup_scan[i] - v;
}
#endif
#endif  // SORT_ITEMS
