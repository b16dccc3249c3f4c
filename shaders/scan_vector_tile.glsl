// One tile of the fast/* scans, the counterpart of CUDA's TileScan (kernels/scan_fast.cuh): WG
// invocations x VECS vectors. Each subgroup owns VECS consecutive segments of
// LANE_ELEMS * gl_SubgroupSize elements and reads segment k as one coalesced access (lane l takes
// elements LANE_ELEMS * l .. LANE_ELEMS * l + LANE_ELEMS - 1), so loads and stores need no
// shared-memory transpose. Within a segment: a serial scan of the lane's elements, a subgroup
// scan of the lane totals and the carry of the subgroup's earlier segments; then the subgroups'
// totals through shared memory, in a fixed order whatever the subgroup size.
// Requires: GL_KHR_shader_subgroup_{basic,arithmetic,shuffle}, full subgroups (the host asks),
// pc.in_offset and pc.out_offset multiples of 8 (16-byte aligned vectors at pc.src and pc.dst).

layout(constant_id = 1) const uint VECS = 8;

// A lane's elements per segment: 4 (one T4, 16 bytes or 32 of 8-byte types), or 8 of the 16-bit
// types, one 16-byte vector widened into two T4, as CUDA's lanes take 16 bytes whatever the
// element: a 16-bit tile then does an f32 tile's subgroup scans and shuffles per 16 bytes, not per
// 8 (the host's lane_elements; core's shape exception carries the runs,
// docs/results/H200/compiled).
#if E_BYTES == 2
const uint LANE_T4 = 2u;
#else
const uint LANE_T4 = 1u;
#endif
const uint LANE_ELEMS = 4u * LANE_T4;

T4 t[VECS * LANE_T4];  // t[k * LANE_T4 + h]: lane-local inclusive scan of its elements in segment k
T lane_prefix[VECS];  // everything before the lane's 4 elements within the subgroup's segments
T subgroup_prefix;    // everything before this subgroup within the tile
T aggregate;          // the whole tile

shared T subgroup_totals[WG];  // one slot per subgroup

uint tile_elements() { return WG * VECS * LANE_ELEMS; }

// Elements from the tile's first to component 0 of this lane's vector k (32-bit: within a tile).
uint vector_offset(uint k) {
  return (gl_SubgroupID * VECS + k) * (LANE_ELEMS * gl_SubgroupSize) +
         LANE_ELEMS * gl_SubgroupInvocationID;
}

// Lane vector k of a whole tile, vector 0 at `at`: one 16-byte load (32 for 8-byte types).
void load_vector(IDX at, uint k) {
#if E_BYTES == 2
  const uvec4 bits = load_src8_bits(at, k * gl_SubgroupSize);
  t[2 * k] = widen4_bits(bits.xy);
  t[2 * k + 1] = widen4_bits(bits.zw);
#else
  t[k] = load_src4(at, k * gl_SubgroupSize);
#endif
}

// Loads the tile at element tile_base (elements past `end` are the identity): vector loads for
// a whole tile, element by element for the last one. The 64-bit address is computed once, for
// the lane's vector 0; vector k lies k subgroup widths of vectors further.
void tile_load(IDX tile_base, IDX end) {
  const IDX at = src_base(pc.in_offset + tile_base + vector_offset(0));
  if (tile_base + tile_elements() <= end) {
    [[unroll]] for (uint k = 0; k < VECS; ++k) load_vector(at, k);
  } else {
    const uint len = uint(end - tile_base);  // the last tile: fewer than tile_elements()
    [[unroll]] for (uint k = 0; k < VECS; ++k) {
      const uint i = vector_offset(k);
      [[unroll]] for (uint e = 0; e < LANE_ELEMS; ++e)
        t[k * LANE_T4 + e / 4][e % 4] =
            i + e < len ? load_src(at, k * (LANE_ELEMS * gl_SubgroupSize) + e) : T(IDENTITY);
    }
  }
}

// Scans the loaded tile. Two barriers: every invocation of the workgroup calls it.
void tile_scan() {
  const uint lane = gl_SubgroupInvocationID;
  T carry = T(IDENTITY);  // the subgroup's earlier segments
  [[unroll]] for (uint k = 0; k < VECS; ++k) {
    [[unroll]] for (uint h = 0; h < LANE_T4; ++h) {
      const uint v = k * LANE_T4 + h;
      if (h > 0) t[v].x = OP(t[max(v, 1u) - 1u].w, t[v].x);
      t[v].y = OP(t[v].x, t[v].y);
      t[v].z = OP(t[v].y, t[v].z);
      t[v].w = OP(t[v].z, t[v].w);
    }
    const T incl = SUBGROUP_INCLUSIVE_OP(t[k * LANE_T4 + LANE_T4 - 1].w);
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
  T4 y[VECS * LANE_T4];
  [[unroll]] for (uint k = 0; k < VECS; ++k) {
    const T p = OP(base, lane_prefix[k]);
    [[unroll]] for (uint h = 0; h < LANE_T4; ++h) {
      const uint v = k * LANE_T4 + h;
      if (exclusive) {
        const T first = h == 0 ? p : OP(p, t[max(v, 1u) - 1u].w);  // no index -1
        y[v] = T4(first, OP(p, t[v].x), OP(p, t[v].y), OP(p, t[v].z));
      } else {
        y[v] = T4(OP(p, t[v].x), OP(p, t[v].y), OP(p, t[v].z), OP(p, t[v].w));
      }
    }
  }
  const IDX at = dst_base(pc.out_offset + tile_base + vector_offset(0));  // as tile_load
  if (tile_base + tile_elements() <= end) {
    [[unroll]] for (uint k = 0; k < VECS; ++k) {
#if E_BYTES == 2
      store_dst8_bits(at, k * gl_SubgroupSize,
                      uvec4(narrow4_bits(y[2 * k]), narrow4_bits(y[2 * k + 1])));
#else
      store_dst4(at, k * gl_SubgroupSize, y[k]);
#endif
    }
  } else {
    const uint len = uint(end - tile_base);
    [[unroll]] for (uint k = 0; k < VECS; ++k) {
      const uint i = vector_offset(k);
      [[unroll]] for (uint e = 0; e < LANE_ELEMS; ++e)
        if (i + e < len)
          store_dst(at, k * (LANE_ELEMS * gl_SubgroupSize) + e, y[k * LANE_T4 + e / 4][e % 4]);
    }
  }
}
