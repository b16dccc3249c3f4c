// The copy probe behind Backend::measure_copy_bandwidth_gbps (port of
// shaders/copy_bandwidth.comp): 16-byte loads and stores over a grid-stride loop, UNROLL loads in
// flight per work-item before their stores. A kernel, like the copy kernel behind cudaMemcpy's
// device-to-device path, because clEnqueueCopyBuffer may go through a DMA engine, which is not
// what a scan kernel competes with. Built with T_U32.
// Arguments: n 16-byte vectors from src to dst; `groups` work-groups.
XR_KERNEL {
  XR_UNUSED_ARGS;
  __global const uint4* from = (__global const uint4*)src;
  __global uint4* to = (__global uint4*)dst;
  const IDX threads = (IDX)groups * WG;
  // Hoisted bound of the unrolled loop (i < it: all UNROLL loads in range).
  const IDX span = (IDX)(UNROLL - 1) * threads;
  const IDX unrolled_end = (IDX)n > span ? (IDX)n - span : 0;
  IDX i = (IDX)get_group_id(0) * WG + (IDX)get_local_id(0);
  for (; i < unrolled_end; i += UNROLL * threads) {
    uint4 v[UNROLL];
#pragma unroll
    for (uint u = 0u; u < UNROLL; ++u) v[u] = from[i + u * threads];
#pragma unroll
    for (uint u = 0u; u < UNROLL; ++u) to[i + u * threads] = v[u];
  }
  for (; i < (IDX)n; i += threads) to[i] = from[i];
}
