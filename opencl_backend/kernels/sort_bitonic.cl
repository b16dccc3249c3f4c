// bitonic/smem's items and compare-exchange, shared by its passes (the port of
// shaders/sort_bitonic.glsl): Batcher's bitonic sorting network (Batcher, "Sorting networks and
// their applications", 1968) over items of (the key's bits in the sort's range, its input
// position), compared lexicographically. The position makes every item distinct, so the network,
// which is not stable by itself, yields the stable order. The items are padded to a power of two,
// at least one tile, with the largest rank and positions from n up, so padding sorts last.
//
// Stage k (sorted runs of k from runs of k/2) compares i with i ^ j for j = k/2 .. 1, ascending
// where i & k is 0. Pair q of a step compares i = 2q - q % j with i + j.
//
// The items take the fifth argument, where the radix passes take their words.
#if KEY_BITS == 64
typedef uint4 ITEM;  // the rank's low and high words, the input position, a word of padding
#else
typedef uint2 ITEM;  // the rank and the input position
#endif
#define ITEMS_OF(words) ((__global ITEM*)(words))

// The range's width of ones: a key's rank at most, and the padding's. BITS holds 32 bits for
// 16-bit keys: only a whole 32- or 64-bit range shifts past its width.
BITS rank_mask(const SortArgs* pc) {
  const uint width = pc->end - pc->begin;
  const uint held = KEY_BITS == 64 ? 64u : 32u;
  return width >= held ? ~(BITS)0 : ((BITS)1 << width) - (BITS)1;
}

// A key's rank: its sort bits (core's order) in [begin, end), shifted down.
BITS rank_of(BITS key, const SortArgs* pc, uint mode) {
  return (sort_bits(key, mode) >> pc->begin) & rank_mask(pc);
}

// The items' construction and order, shared with GLSL.
#define XR_UINT(x) (uint)(x)
#define XR_UINT2 (uint2)
#define XR_UINT4 (uint4)
#include "xreduce/kernel/sort_bitonic_items.h"
