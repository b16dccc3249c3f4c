#version 450
// smem/hillis-steele (CUDA's scan_hillis_steele, GPU Gems 3 39.2.1): one element per invocation,
// tile = WG elements, log2(WG) steps that each combine the value `off` slots to the left,
// ping-ponging between two shared buffers so a step never reads what it writes. The scan is
// inclusive in shared memory; exclusive output reads the left neighbour's inclusive value.
#extension GL_EXT_control_flow_attributes : require
#include "scan_common.glsl"

shared T s[2 * WG];

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const uint tid = gl_LocalInvocationID.x;
  const IDX i = IDX(group) * WG + tid;
  uint cur = 0;  // the buffer holding the latest step
  s[tid] = i < PC_N ? src_at(pc.in_offset + i) : T(IDENTITY);
  barrier();
  [[unroll]] for (uint off = 1; off < WG; off *= 2) {
    T v = s[cur * WG + tid];
    if (tid >= off) v = OP(s[cur * WG + tid - off], v);
    cur ^= 1u;
    s[cur * WG + tid] = v;
    barrier();
  }
  const uint scanned = cur * WG;
  if (i < PC_N)
    dst_set(pc.out_offset + i,
            !exclusive_scan() ? s[scanned + tid] : tid > 0u ? s[scanned + tid - 1] : T(IDENTITY));
  if (writes_totals() && tid == WG - 1) aux_set(pc.aux_offset + group, s[scanned + tid]);
}
