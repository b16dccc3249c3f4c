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

ITEM make_item(BITS rank, uint position) {
#if KEY_BITS == 64
  return uvec4(uint(rank), uint(rank >> 32), position, 0u);
#else
  return uvec2(rank, position);
#endif
}

uint position_of(ITEM item) {
#if KEY_BITS == 64
  return item.z;
#else
  return item.y;
#endif
}

bool item_less(ITEM a, ITEM b) {
#if KEY_BITS == 64
  if (a.y != b.y) return a.y < b.y;
  if (a.x != b.x) return a.x < b.x;
  return a.z < b.z;
#else
  if (a.x != b.x) return a.x < b.x;
  return a.y < b.y;
#endif
}

// The first item of pair q of a step at stride j (a power of two).
uint pair_first(uint q, uint j) { return 2u * q - (q & (j - 1u)); }

// Whether the run of stage k holding item i (of the whole sequence) sorts ascending.
bool ascending_at(uint i, uint k) { return (i & k) == 0u; }

// The dispatch's workgroups in one row (grids past maxComputeWorkGroupCount[0] are 2-D).
uint workgroup_index() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
