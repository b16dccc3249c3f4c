// One tile of the fast/* scans, the counterpart of CUDA's TileScan (kernels/scan_fast.cuh): WG
// invocations x VECS 16-byte vectors. Each subgroup owns VECS consecutive segments of
// 4 * gl_SubgroupSize elements and reads segment k as one coalesced access (lane l takes
// elements 4l..4l+3), so loads and stores need no shared-memory transpose. Within a segment: a
// serial scan of the lane's 4 elements, a subgroup scan of the lane totals and the carry of the
// subgroup's earlier segments; then the subgroups' totals through shared memory, in a fixed
// order whatever the subgroup size.
// Requires: GL_KHR_shader_subgroup_{basic,arithmetic,shuffle}, full subgroups (the host asks),
// pc.in_offset and pc.out_offset multiples of 4 (16-byte aligned vectors at pc.src and pc.dst).

layout(constant_id = 1) const uint VECS = 8;

T4 t[VECS];           // lane-local inclusive scan of the lane's 4 elements of segment k
T lane_prefix[VECS];  // everything before the lane's 4 elements within the subgroup's segments
T subgroup_prefix;    // everything before this subgroup within the tile
T aggregate;          // the whole tile

shared T subgroup_totals[WG];  // one slot per subgroup

uint tile_elements() { return WG * VECS * 4; }

// Elements from the tile's first to component 0 of this lane's vector k (32-bit: within a tile).
uint vector_offset(uint k) {
  return (gl_SubgroupID * VECS + k) * (4 * gl_SubgroupSize) + 4 * gl_SubgroupInvocationID;
}

// Loads the tile at element tile_base (elements past `end` are the identity): 16-byte loads for
// a whole tile, element by element for the last one. The 64-bit address is computed once, for
// the lane's vector 0; vector k lies k subgroup widths of vectors further.
void tile_load(IDX tile_base, IDX end) {
  const IDX at = src_base(pc.in_offset + tile_base + vector_offset(0));
  if (tile_base + tile_elements() <= end) {
    [[unroll]] for (uint k = 0; k < VECS; ++k) t[k] = load_src4(at, k * gl_SubgroupSize);
  } else {
    const uint len = uint(end - tile_base);  // the last tile: fewer than tile_elements()
    [[unroll]] for (uint k = 0; k < VECS; ++k) {
      const uint i = vector_offset(k);
      [[unroll]] for (uint j = 0; j < 4; ++j)
        t[k][j] = i + j < len ? load_src(at, k * (4 * gl_SubgroupSize) + j) : T(IDENTITY);
    }
  }
}

// Scans the loaded tile. Two barriers: every invocation of the workgroup calls it.
void tile_scan() {
  const uint lane = gl_SubgroupInvocationID;
  T carry = T(IDENTITY);  // the subgroup's earlier segments
  [[unroll]] for (uint k = 0; k < VECS; ++k) {
    t[k].y = OP(t[k].x, t[k].y);
    t[k].z = OP(t[k].y, t[k].z);
    t[k].w = OP(t[k].z, t[k].w);
    const T incl = SUBGROUP_INCLUSIVE_OP(t[k].w);
    const T up = subgroupShuffleUp(incl, 1);
    lane_prefix[k] = lane == 0 ? carry : OP(carry, up);
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
      y[k] = T4(p, OP(p, t[k].x), OP(p, t[k].y), OP(p, t[k].z));
    } else {
      y[k] = T4(OP(p, t[k].x), OP(p, t[k].y), OP(p, t[k].z), OP(p, t[k].w));
    }
  }
  const IDX at = dst_base(pc.out_offset + tile_base + vector_offset(0));  // as tile_load
  if (tile_base + tile_elements() <= end) {
    [[unroll]] for (uint k = 0; k < VECS; ++k) store_dst4(at, k * gl_SubgroupSize, y[k]);
  } else {
    const uint len = uint(end - tile_base);
    [[unroll]] for (uint k = 0; k < VECS; ++k) {
      const uint i = vector_offset(k);
      [[unroll]] for (uint j = 0; j < 4; ++j)
        if (i + j < len) store_dst(at, k * (4 * gl_SubgroupSize) + j, y[k][j]);
    }
  }
}
