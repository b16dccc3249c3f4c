// smem/hillis-steele (shaders/scan_hillis_steele.comp, CUDA's scan_hillis_steele, GPU Gems 3
// 39.2.1): one element per work-item, tile = WG elements, log2(WG) steps that each combine the
// value `off` slots to the left, ping-ponging between two local buffers so a step never reads
// what it writes. The scan is inclusive in local memory; exclusive output reads the left
// neighbour's inclusive value. One source for both levels' kinds: the host builds the wide first
// level of a 16-bit scan with -DXR_WIDE_DST and without XR_DST_ELEMENTS, so dst then holds
// accumulators (common.cl's D and DST_STORE follow XR_DST_ELEMENTS).
XR_KERNEL {
  XR_UNUSED_ARGS;
  __local T s[2 * WG];
  const uint group = (uint)get_group_id(0);
  if (group >= groups) return;  // uniform in the work-group
  const uint tid = (uint)get_local_id(0);
  const IDX i = (IDX)group * WG + tid;
  uint cur = 0u;  // the buffer holding the latest step
  s[tid] = LOAD_OR_IDENTITY(i);
  barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (uint off = 1u; off < WG; off *= 2u) {
    T v = s[cur * WG + tid];
    if (tid >= off) v = OP(s[cur * WG + tid - off], v);
    cur ^= 1u;
    s[cur * WG + tid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const uint scanned = cur * WG;
  if (i < (IDX)n)
    DST_STORE(dst, out_offset + i,
              !EXCLUSIVE_SCAN() ? s[scanned + tid]
              : tid > 0u        ? s[scanned + tid - 1u]
                                : IDENTITY);
  if (WRITES_TOTALS() && tid == WG - 1u) aux[aux_offset + group] = s[scanned + tid];
}
