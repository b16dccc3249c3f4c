#version 450
// bit/smem and bit/unrolled query (CUDA's calc_sum_using_bit_smem, the BIT scan's shared-memory
// query): the query of bit_query.comp accumulating in shared memory at the invocation's own slot,
// written to the output once. The original's accumulator was volatile shared; GLSL has no volatile
// shared, so a shared-memory barrier after each store keeps the shared round trip the original
// measured. It is subgroupMemoryBarrierShared, not memoryBarrierShared: only this invocation
// touches its slot, so any scope serves, and Mesa 22.3's lavapipe loses results when a workgroup-
// or device-scope memory barrier sits in this divergent loop. No workgroup barrier: nothing is
// shared between invocations.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_basic : require
#include "scan_common.glsl"

shared T acc[WG];

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const uint tid = gl_LocalInvocationID.x;
  acc[tid] = T(IDENTITY);
  subgroupMemoryBarrierShared();
  const IDX i = IDX(group) * WG + tid;
  if (i >= PC_N) return;
  for (IDX j = exclusive_scan() ? i : i + 1; j > 0; j -= j & (~j + 1u)) {
    acc[tid] = OP(aux_at(pc.aux_offset + j - 1), acc[tid]);
    subgroupMemoryBarrierShared();
  }
  dst_set(pc.out_offset + i, acc[tid]);
}
