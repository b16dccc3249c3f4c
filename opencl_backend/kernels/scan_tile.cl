// One tile of the fast/* scans (fast/reduce-then-scan's tile pass, the look-back's), the port of
// shaders/scan_vector_tile.glsl and CUDA's TileScan (cuda_backend/library/kernels/scan_fast.cuh):
// WG work-items x UNROLL vectors. Each sub-group owns UNROLL consecutive segments of
// LANE_ELEMS * SG elements and reads segment k as one coalesced access (lane l takes elements
// LANE_ELEMS * l .. LANE_ELEMS * l + LANE_ELEMS - 1), so loads and stores need no local-memory
// transpose. Within a segment: a serial scan of the lane's elements, a sub-group scan of the lane
// totals and the carry of the sub-group's earlier segments; then the sub-groups' totals through
// local memory. With SG == 1 (no sub-group hardware: pocl) a "segment" is one work-item's vector,
// a work-item owns UNROLL consecutive vectors, and the work-group combines its work-items' totals
// with wg_exclusive_scan (group.cl).
// Requires: in_offset and out_offset multiples of 8 elements (the host keeps them so), the tile
// base a multiple of LANE_ELEMS (tiles and chunks are whole tiles).

// A lane's elements per vector: 4 (one T4), or 8 of the 16-bit types (one 16-byte vector, two
// T4 once widened; the host's lane_elements).
#if E_BYTES == 2
#define LANE_T4 2u
#else
#define LANE_T4 1u
#endif
#define LANE_ELEMS (4u * LANE_T4)
#define VECS UNROLL
#define TILE_ELEMENTS (WG * VECS * LANE_ELEMS)
// The local accumulators tile_scan takes: one per sub-group, or wg_exclusive_scan's 2 WG.
#if SG > 1
#define TILE_SLOTS (WG / SG)
#else
#define TILE_SLOTS (2u * WG)
#endif

typedef struct {
  T t[VECS * LANE_ELEMS];  // [k * LANE_ELEMS + e]: lane-local inclusive scan of vector k
  T lane_prefix[VECS];     // everything before the lane's vector k within the sub-group's segments
  T sg_prefix;             // everything before this sub-group within the tile
  T aggregate;             // the whole tile
} Tile;

// Elements from the tile's first to element 0 of this lane's vector k (32-bit: within a tile).
uint tile_vector_offset(uint k) {
  return (sg_id() * VECS + k) * (LANE_ELEMS * SG) + LANE_ELEMS * sg_lane();
}

// Loads the tile at element tile_base of `in` (elements at and past `end` are the identity):
// vector loads for a whole tile, element by element for the last one. Vector k of the lane lies
// k sub-group widths of vectors past its vector 0.
void tile_load(Tile* tile, __global const E* in, IDX tile_base, IDX end) {
  __global const E* at = in + tile_base + tile_vector_offset(0u);
  if (tile_base + TILE_ELEMENTS <= end) {
#pragma unroll
    for (uint k = 0u; k < VECS; ++k) {
#pragma unroll
      for (uint h = 0u; h < LANE_T4; ++h) {
        const T4 v = LOAD4(at, (k * SG) * LANE_T4 + h);
        T* d = tile->t + k * LANE_ELEMS + 4u * h;
        d[0] = v.x;
        d[1] = v.y;
        d[2] = v.z;
        d[3] = v.w;
      }
    }
  } else {
    const uint len = (uint)(end - tile_base);  // the last tile: fewer than TILE_ELEMENTS
#pragma unroll
    for (uint k = 0u; k < VECS; ++k) {
      const uint i = tile_vector_offset(k);
#pragma unroll
      for (uint e = 0u; e < LANE_ELEMS; ++e)
        tile->t[k * LANE_ELEMS + e] =
            i + e < len ? LOAD(at, k * (LANE_ELEMS * SG) + e) : IDENTITY;
    }
  }
}

// Scans the loaded tile. `slots`: TILE_SLOTS local accumulators. Work-group barriers: every
// work-item of the work-group calls it; slots may be reused when it returns.
void tile_scan(Tile* tile, __local T* slots) {
  T carry = IDENTITY;  // the sub-group's earlier segments
#pragma unroll
  for (uint k = 0u; k < VECS; ++k) {
    T* v = tile->t + k * LANE_ELEMS;
#pragma unroll
    for (uint e = 1u; e < LANE_ELEMS; ++e) v[e] = OP(v[e - 1u], v[e]);
#if SG > 1
    const T incl = sg_inclusive(v[LANE_ELEMS - 1u]);
    const T up = sg_shuffle_up(incl, 1u);
    tile->lane_prefix[k] = sg_lane() == 0u ? carry : OP(carry, up);
    // OP evaluates its operands twice (min/max): a shuffle goes through a variable, or the
    // second evaluation would be a shuffle in divergent code.
    const T segment = sg_broadcast(incl, SG - 1u);
    carry = OP(carry, segment);
#else
    tile->lane_prefix[k] = carry;
    carry = OP(carry, v[LANE_ELEMS - 1u]);
#endif
  }
#if SG > 1
  if (sg_lane() == SG - 1u) slots[sg_id()] = carry;
  barrier(CLK_LOCAL_MEM_FENCE);
  T before = IDENTITY, all = IDENTITY;
  const uint me = sg_id();
  for (uint w = 0u; w < WG / SG; ++w) {
    if (w == me) before = all;
    all = OP(all, slots[w]);
  }
  tile->sg_prefix = before;
  tile->aggregate = all;
  barrier(CLK_LOCAL_MEM_FENCE);  // slots may be reused by the next tile
#else
  T all;
  tile->sg_prefix = wg_exclusive_scan(carry, slots, &all);  // ends with a barrier
  tile->aggregate = all;
#endif
}

// Stores the tile at element tile_base of `out`, every element combined with `prefix`
// (everything before the tile) and narrowed once; elements at and past `end` are not written.
void tile_store(const Tile* tile, __global D* out, IDX tile_base, IDX end, T prefix,
                bool exclusive) {
  const T base = OP(prefix, tile->sg_prefix);
  T y[VECS * LANE_ELEMS];
#pragma unroll
  for (uint k = 0u; k < VECS; ++k) {
    const T p = OP(base, tile->lane_prefix[k]);
    const T* v = tile->t + k * LANE_ELEMS;
    T* o = y + k * LANE_ELEMS;
    if (exclusive) {
      o[0] = p;
#pragma unroll
      for (uint e = 1u; e < LANE_ELEMS; ++e) o[e] = OP(p, v[e - 1u]);
    } else {
#pragma unroll
      for (uint e = 0u; e < LANE_ELEMS; ++e) o[e] = OP(p, v[e]);
    }
  }
  __global D* at = out + tile_base + tile_vector_offset(0u);  // as tile_load
  if (tile_base + TILE_ELEMENTS <= end) {
#pragma unroll
    for (uint k = 0u; k < VECS; ++k) {
#pragma unroll
      for (uint h = 0u; h < LANE_T4; ++h) {
        const T* o = y + k * LANE_ELEMS + 4u * h;
        DST_STORE4(at, (k * SG) * LANE_T4 + h, ((T4)(o[0], o[1], o[2], o[3])));
      }
    }
  } else {
    const uint len = (uint)(end - tile_base);
#pragma unroll
    for (uint k = 0u; k < VECS; ++k) {
      const uint i = tile_vector_offset(k);
#pragma unroll
      for (uint e = 0u; e < LANE_ELEMS; ++e)
        if (i + e < len) DST_STORE(at, k * (LANE_ELEMS * SG) + e, y[k * LANE_ELEMS + e]);
    }
  }
}
