// The streaming-read probe behind Backend::measure_read_bandwidth_gbps (port of
// shaders/read_bandwidth.comp): 16-byte loads over a grid-stride loop, UNROLL in flight per
// work-item, folded with XOR so no load can be dropped; the fold is written only when it equals an
// arbitrary constant, so the probe writes (almost) nothing. Built with T_U32.
// Arguments: n 16-byte vectors from src; the sink word at dst[out_offset]; `groups` work-groups.
XR_KERNEL {
  XR_UNUSED_ARGS;
  __global const uint4* data = (__global const uint4*)src;
  const IDX threads = (IDX)groups * WG;
  // Hoisted bound of the unrolled loop (i < it: all UNROLL loads in range).
  const IDX span = (IDX)(UNROLL - 1) * threads;
  const IDX unrolled_end = (IDX)n > span ? (IDX)n - span : 0;
  IDX i = (IDX)get_group_id(0) * WG + (IDX)get_local_id(0);
  uint4 acc = (uint4)(0u);
  for (; i < unrolled_end; i += UNROLL * threads) {
#pragma unroll
    for (uint u = 0u; u < UNROLL; ++u) acc ^= data[i + u * threads];
  }
  for (; i < (IDX)n; i += threads) acc ^= data[i];
  const uint r = acc.x ^ acc.y ^ acc.z ^ acc.w;
  if (r == 0x9e3779b9u) dst[out_offset] = r;
}
