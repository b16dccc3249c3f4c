// One tile of the fast/* scans, the counterpart of CUDA's TileScan (kernels/scan_fast.cuh): WG
// invocations x VECS 4-element vectors. Each subgroup owns VECS / LANE_VECS consecutive segments
// of 4 * LANE_VECS * gl_SubgroupSize elements; in segment s lane l takes the LANE_VECS adjacent
// vectors from element 4 * LANE_VECS * l, one coalesced access per vector, so loads and stores
// need no shared-memory transpose. Within a segment: a serial scan of the lane's
// 4 * LANE_VECS elements, a subgroup scan of the lane totals and the carry of the subgroup's
// earlier segments; then the subgroups' totals through shared memory, in a fixed order whatever
// the subgroup size.
// Requires: GL_KHR_shader_subgroup_{basic,arithmetic,shuffle}, full subgroups (the host asks),
// pc.in_offset and pc.out_offset multiples of 4 (16-byte aligned vectors at pc.src and pc.dst).

layout(constant_id = 1) const uint VECS = 8;
// Vectors per lane and subgroup scan (specialization constant 5; VECS is a multiple): 2 gives a
// 16-bit lane 8 halves per scan, as CUDA's 16-byte vectors do, for half the subgroup scans and
// shuffles per element (the policy's measurement is in vk_scan_table.cpp).
layout(constant_id = 5) const uint LANE_VECS = 1;

T4 t[VECS];           // lane-local inclusive scan of the lane's elements of its segment, to vector k
T lane_prefix[VECS];  // everything before the lane's elements of vector k's segment in the subgroup
T subgroup_prefix;    // everything before this subgroup within the tile
T aggregate;          // the whole tile

shared T subgroup_totals[WG];  // one slot per subgroup

uint tile_elements() { return WG * VECS * 4; }

// Vectors from this lane's vector 0 to its vector k: k / LANE_VECS segments further, k % LANE_VECS
// vectors into the lane's part of the segment.
uint vector_step(uint k) {
  return (k / LANE_VECS) * LANE_VECS * gl_SubgroupSize + k % LANE_VECS;
}

// Elements from the tile's first to component 0 of this lane's vector k (32-bit: within a tile).
uint vector_offset(uint k) {
  return gl_SubgroupID * VECS * (4 * gl_SubgroupSize) + 4 * LANE_VECS * gl_SubgroupInvocationID +
         4 * vector_step(k);
}

// Loads the tile at element tile_base (elements past `end` are the identity): 16-byte loads for
// a whole tile, element by element for the last one. The 64-bit address is computed once, for
// the lane's vector 0; vector k lies vector_step(k) vectors further.
void tile_load(IDX tile_base, IDX end) {
  const IDX at = src_base(pc.in_offset + tile_base + vector_offset(0));
  if (tile_base + tile_elements() <= end) {
    [[unroll]] for (uint k = 0; k < VECS; ++k) t[k] = load_src4(at, vector_step(k));
  } else {
    const uint len = uint(end - tile_base);  // the last tile: fewer than tile_elements()
    [[unroll]] for (uint k = 0; k < VECS; ++k) {
      const uint i = vector_offset(k);
      [[unroll]] for (uint j = 0; j < 4; ++j)
        t[k][j] = i + j < len ? load_src(at, 4 * vector_step(k) + j) : T(IDENTITY);
    }
  }
}

// Scans the loaded tile. Two barriers: every invocation of the workgroup calls it.
void tile_scan() {
  const uint lane = gl_SubgroupInvocationID;
  T carry = T(IDENTITY);  // the subgroup's earlier segments
  [[unroll]] for (uint k = 0; k < VECS; ++k) {
    if (k % LANE_VECS != 0) t[k].x = OP(t[k - 1].w, t[k].x);  // the lane's earlier vectors
    t[k].y = OP(t[k].x, t[k].y);
    t[k].z = OP(t[k].y, t[k].z);
    t[k].w = OP(t[k].z, t[k].w);
    if (k % LANE_VECS != LANE_VECS - 1) continue;  // the segment's scan after its last vector
    const T incl = SUBGROUP_INCLUSIVE_OP(t[k].w);
    const T up = subgroupShuffleUp(incl, 1);
    const T before = lane == 0 ? carry : OP(carry, up);
    [[unroll]] for (uint q = 0; q < LANE_VECS; ++q) lane_prefix[k - q] = before;
    carry = OP(carry, subgroupShuffle(incl, gl_SubgroupSize - 1));
  }
  if (lane == gl_SubgroupSize - 1) subgroup_totals[gl_SubgroupID] = carry;
  barrier();
  T before = T(IDENTITY), all = T(IDENTITY);
  for (uint w = 0; w < gl_NumSubgroups; ++w) {
    if (w == gl_SubgroupID) before = all;
    all = OP(all, subgroup_totals[w]);
  }
  subgroup_prefix = before;
  aggregate = all;
  barrier();  // subgroup_totals may be reused by the next tile
}

// Stores the tile, every element combined with `prefix` (everything before the tile).
void tile_store(IDX tile_base, IDX end, T prefix, bool exclusive) {
  const T base = OP(prefix, subgroup_prefix);
  T4 y[VECS];
  [[unroll]] for (uint k = 0; k < VECS; ++k) {
    const T p = OP(base, lane_prefix[k]);
    if (exclusive) {
      T first = p;  // an if, not a select: t[k - 1] only where k > 0
      if (k % LANE_VECS != 0) first = OP(p, t[k - 1].w);
      y[k] = T4(first, OP(p, t[k].x), OP(p, t[k].y), OP(p, t[k].z));
    } else {
      y[k] = T4(OP(p, t[k].x), OP(p, t[k].y), OP(p, t[k].z), OP(p, t[k].w));
    }
  }
  const IDX at = dst_base(pc.out_offset + tile_base + vector_offset(0));  // as tile_load
  if (tile_base + tile_elements() <= end) {
    [[unroll]] for (uint k = 0; k < VECS; ++k) store_dst4(at, vector_step(k), y[k]);
  } else {
    const uint len = uint(end - tile_base);
    [[unroll]] for (uint k = 0; k < VECS; ++k) {
      const uint i = vector_offset(k);
      [[unroll]] for (uint j = 0; j < 4; ++j)
        if (i + j < len) store_dst(at, 4 * vector_step(k) + j, y[k][j]);
    }
  }
}
