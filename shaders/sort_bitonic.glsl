// bitonic/smem's items and compare-exchange, shared by its passes: Batcher's bitonic sorting
// network (Batcher, "Sorting networks and their applications", 1968) over items of (the key's
// bits in the sort's range, its input position), compared lexicographically. The position makes
// every item distinct, so the network, which is not stable by itself, yields the stable order.
// The items are padded to a power of two, at least one tile, with the largest rank and positions
// from n up, so padding sorts last (CUDA's kernels/sort_bitonic.cuh, item for item).
//
// Stage k (sorted runs of k from runs of k/2) compares i with i ^ j for j = k/2 .. 1, ascending
// where i & k is 0. Pair q of a step compares i = 2q - q % j with i + j.
//
// Include after sort_common.glsl, with SORT_ITEMS defined before it: the items take binding 4.

#if KEY_BITS == 64
// The rank's low and high words, the input position and a word of padding: 16 bytes.
#define ITEM uvec4
#else
// The rank and the input position: 8 bytes.
#define ITEM uvec2
#endif

layout(set = 0, binding = 4) restrict buffer Items { ITEM items[]; };

// The range's width of ones: a key's rank at most, and the padding's.
// BITS holds 32 bits for 16-bit keys: only a whole 32- or 64-bit range shifts past its width.
BITS rank_mask() {
  const uint width = pc.end - pc.begin;
  const uint held = KEY_BITS == 64 ? 64u : 32u;
  return width >= held ? ~BITS(0) : (BITS(1) << width) - BITS(1);
}

// A key's rank: its sort bits (core's order, sort_common.glsl) in [begin, end), shifted down.
BITS rank_of(BITS key) { return (sort_bits(key) >> pc.begin) & rank_mask(); }

// The items' construction and order, shared with OpenCL C.
#define XR_UINT(x) uint(x)
#define XR_UINT2 uvec2
#define XR_UINT4 uvec4
#include "xreduce/kernel/sort_bitonic_items.h"

// The dispatch's workgroups in one row (grids past maxComputeWorkGroupCount[0] are 2-D).
uint workgroup_index() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
