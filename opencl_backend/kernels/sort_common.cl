// Shared by the sort kernels, after common.cl and group.cl (the OpenCL counterpart of
// shaders/sort_common.glsl): the key's width from a define (K16, K32, K64), the pass's
// arguments, its five operands, the key codec of core's total order (xreduce/sort_keys.hpp) and
// the work-group scans over 32-bit counts. The host builds with:
//   K16 | K32 | K64   the key's width
//   SORT_MODE         the key's kind and order fixed at build, as `mode` gives them, in the
//                     stages that read keys by their order (`ordered` in xreduce/sort_stages.h)
//                     where the device's policy builds a program per kind and order
//                     (cl_sort_plan.cpp); without it, one program per width reads `mode`
//   PAIRS             the pass moves a u32 value with each key; with VALUE64 a u64 value, as
//                     two words, low then high (the values' arguments are words either way)
//   WG, UNROLL        the work-group and the tile's keys per work-item
//   WIDE, XR_IDX64    core's wide form (xreduce/sort_passes.hpp): IDX indices and PC_N keys in
//                     64 bits, every count that may pass 2^32 (histograms, bins, reduce-then-
//                     scan's table) two words of `words`, low then high, reached through
//                     load_count, store_count and add_count; a tile's own counts stay 32-bit
//
// Every sort kernel takes the same arguments (SORT_KERNEL): the five operands as buffers with an
// element offset each (the host binds the caller's arrays or regions of its scratch: OpenCL
// binds buffers, not ranges), the count on the device (Sort::enqueue_indirect's; the words
// otherwise, never read), the pass's arguments as one struct (core's SortArgs, field for field)
// and the key's kind and order. Operands a pass does not use get the words' buffer.
#if defined(K64)
typedef ulong KEY;  // a key as stored
typedef ulong BITS;  // its bits in registers
#define KEY_BITS 64
#define KEY_WORDS 2  // 32-bit words of local memory a key takes
#elif defined(K32)
typedef uint KEY;
typedef uint BITS;
#define KEY_BITS 32
#define KEY_WORDS 1
#elif defined(K16)
typedef ushort KEY;
typedef uint BITS;
#define KEY_BITS 16
#define KEY_WORDS 1
#else
#error "define K16, K32 or K64"
#endif

#define kRadix 256u

// core's SortArgs, field for field (xreduce/kernel/sort_args.h, inlined by cl_sources.cpp).
typedef struct {
#define XR_SORT_ARG(name, initial) uint name;
#include "xreduce/kernel/sort_args.h"
#undef XR_SORT_ARG
} SortArgs;

#ifdef WIDE
#ifndef XR_IDX64
#error "the wide form's IDX is common.cl's with XR_IDX64"
#endif
#define PC_N ((((ulong)pc.n_high) << 32) | (ulong)pc.n)
#define kCountWords 2u
#else
#define PC_N pc.n
#define kCountWords 1u
#endif

// The count (two words in the wide form) at word `at` of `words`.
IDX load_count(__global const uint* words, uint at) {
#ifdef WIDE
  return (ulong)words[at] | ((ulong)words[at + 1u] << 32);
#else
  return words[at];
#endif
}
void store_count(__global uint* words, uint at, IDX c) {
  words[at] = (uint)c;
#ifdef WIDE
  words[at + 1u] = (uint)(c >> 32);
#endif
}
// Adds `c` to the count at `at` atomically: in the wide form each add that wraps the low word
// carries one into the high word, so the pair is exact once every add has landed.
void add_count(__global uint* words, uint at, uint c) {
#ifdef WIDE
  const uint before = atomic_add(&words[at], c);
  if (before + c < before) atomic_inc(&words[at + 1u]);
#else
  atomic_add(&words[at], c);
#endif
}

// keys_in and values_in are read-only for the whole pass (the fallback reads them again);
// words is shared between work-groups through atomics.
#define SORT_KERNEL                                                                            \
  __kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void xr_main(                       \
      __global const KEY* restrict keys_in_base, ulong keys_in_at,                             \
      __global KEY* restrict keys_out_base, ulong keys_out_at,                                 \
      __global const uint* restrict values_in_base, ulong values_in_at,                        \
      __global uint* restrict values_out_base, ulong values_out_at, __global uint* words_base, \
      ulong words_at, __global const uint* count_base, ulong count_at, SortArgs pc, uint mode)
// The operands from their offsets, and a counted pass's keys from the count on the device (at
// most the n it was launched for: pc.n is that count from here on); every kernel opens with it.
#define SORT_OPERANDS()                                                       \
  __global const KEY* restrict keys_in = keys_in_base + keys_in_at;           \
  __global KEY* restrict keys_out = keys_out_base + keys_out_at;              \
  __global const uint* restrict values_in = values_in_base + values_in_at;    \
  __global uint* restrict values_out = values_out_base + values_out_at;       \
  __global uint* words = words_base + words_at;                               \
  if (pc.counted != 0u) {                                                     \
    const uint counted = count_base[count_at];                                \
    if ((IDX)counted < PC_N) {                                                \
      pc.n = counted;                                                         \
      pc.n_high = 0u;                                                         \
    }                                                                         \
  }                                                                           \
  (void)keys_in, (void)keys_out, (void)values_in, (void)values_out, (void)words

#ifdef VALUE64
#define VALUE_WORDS 2u
#else
#define VALUE_WORDS 1u
#endif
// Word w of value i of `values` (i * VALUE_WORDS may pass 32 bits: the pointer moves in size_t).
__global const uint* value_word_in(__global const uint* values, IDX i, uint w) {
  return values + (size_t)i * VALUE_WORDS + w;
}
__global uint* value_word_out(__global uint* values, IDX i, uint w) {
  return values + (size_t)i * VALUE_WORDS + w;
}

// reduce-then-scan: the tiles of a block's chunk when a counted pass's keys are shared over
// pc.blocks.
uint chunk_tiles(IDX n, uint tile, uint blocks) {
  const uint tiles = (uint)((n + tile - 1u) / tile);
  return (tiles + blocks - 1u) / blocks;
}

// The key's kind and order (`mode`): bits 0-1 unsigned (0), signed (1) or float (2), bit 2
// descending.
#ifdef SORT_MODE
#define KIND(mode) ((uint)(SORT_MODE)&3u)
#define DESCENDING(mode) (((uint)(SORT_MODE)&4u) != 0u)
#else
#define KIND(mode) ((mode)&3u)
#define DESCENDING(mode) (((mode)&4u) != 0u)
#endif

// What the sort compares a key by (core's sort_bits): the ordered bits, flipped for descending,
// either float zero as the top bit alone.
BITS sort_bits(BITS k, uint mode) {
  const BITS top = (BITS)1 << (KEY_BITS - 1);
#if KEY_BITS == 16
  const BITS all = 0xffffu;
#else
  const BITS all = ~(BITS)0;
#endif
  BITS o = k;
  if (KIND(mode) == 1u) o = k ^ top;
  if (KIND(mode) == 2u) o = (k & top) != (BITS)0 ? ~k & all : k ^ top;
  if (DESCENDING(mode)) o = ~o & all;
  if (KIND(mode) == 2u && o == top - (BITS)1) o = top;
  return o;
}

uint digit_at(BITS sorted, uint shift, uint width) {
  return (uint)(sorted >> shift) & ((1u << width) - 1u);
}

// The inclusive scan of a 32-bit count over the sub-group (group.cl's sub-groups).
uint sg_inclusive_u(uint x) {
#if SG > 1
  const uint lane = sg_lane();
  for (uint d = 1u; d < SG; d <<= 1) {
    const uint y = shfl_up_u32(x, d);
    if (lane >= d) x += y;
  }
#endif
  return x;
}

// The exclusive scan of every work-item's `v` over the work-group. `slots` holds 2 WG words
// (WG / SG with sub-groups). Every work-item calls; ends with a barrier. group.cl's
// wg_exclusive_scan does the same over T, but always with 2 WG slots: 4 KiB more than a digit
// pass's tile has room for in 48 KiB.
uint wg_exclusive_u(uint v, __local uint* slots) {
  const uint tid = (uint)get_local_id(0);
#if SG > 1
  const uint inclusive = sg_inclusive_u(v);
  if (sg_lane() == SG - 1u) slots[sg_id()] = inclusive;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tid < SG) {  // sub-group 0 scans the WG / SG <= SG totals, each lane its own slot
    const uint total = tid < WG / SG ? slots[tid] : 0u;
    const uint before = sg_inclusive_u(total) - total;
    if (tid < WG / SG) slots[tid] = before;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint result = slots[sg_id()] + inclusive - v;
  barrier(CLK_LOCAL_MEM_FENCE);
  return result;
#else
  // Hillis-Steele over two halves of the slots.
  __local uint* in = slots;
  __local uint* out = slots + WG;
  in[tid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = 1u; d < WG; d <<= 1) {
    out[tid] = tid >= d ? in[tid - d] + in[tid] : in[tid];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local uint* t = in;
    in = out;
    out = t;
  }
  const uint result = in[tid] - v;
  barrier(CLK_LOCAL_MEM_FENCE);
  return result;
#endif
}

#ifdef WIDE
// The exclusive scan of 64-bit counts over the work-group (Hillis-Steele over two halves of 2 WG
// `slots`): once per sort pass, where no sub-group operation on 64 bits is assumed. Ends with a
// barrier.
ulong wg_exclusive_wide(ulong v, __local ulong* slots) {
  const uint tid = (uint)get_local_id(0);
  __local ulong* in = slots;
  __local ulong* out = slots + WG;
  in[tid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = 1u; d < WG; d <<= 1) {
    out[tid] = tid >= d ? in[tid - d] + in[tid] : in[tid];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local ulong* t = in;
    in = out;
    out = t;
  }
  const ulong result = in[tid] - v;
  barrier(CLK_LOCAL_MEM_FENCE);
  return result;
}
#endif
#if SG > 1
#define WG_SCAN_SLOTS (WG / SG)
#else
#define WG_SCAN_SLOTS (2u * WG)
#endif
