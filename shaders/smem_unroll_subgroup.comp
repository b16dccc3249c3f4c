#version 450
// smem/unroll-last-warp (Harris #5) as "unroll within a subgroup": first-add loading, workgroup
// barriers while more than two subgroups' worth of slots hold data, then the last steps inside
// subgroup 0 with subgroup barriers (the Vulkan counterpart of __syncwarp(), where the original's
// `volatile` warp-synchronous code is a data race), from 2 x subgroup-size slots as CUDA's last
// warp: the shape and why are in smem_unrolled.glsl. Correct for any subgroup
// size (lavapipe 8, NVIDIA 32), given full subgroups and a workgroup of at least one subgroup
// (the host checks both).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_control_flow_attributes : require
#include "common.glsl"

shared T sdata[WG];

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const uint tid = gl_LocalInvocationID.x;
  const IDX i = IDX(group) * (2 * WG) + tid;
  sdata[tid] = OP(load_or_identity(i), load_or_identity(i + WG));
  barrier();
  [[unroll]] for (uint s = WG / 2; s > gl_SubgroupSize; s >>= 1) {
    if (tid < s) sdata[tid] = OP(sdata[tid], sdata[tid + s]);
    barrier();
  }
  // sdata[0 .. 2 x gl_SubgroupSize) now holds the partials (all WG of them in a workgroup of
  // one or two subgroups); subgroup 0 folds them, indexing by its own lane ids (no assumption on
  // how invocations map to subgroups).
  if (gl_SubgroupID == 0) {
    const uint lane = gl_SubgroupInvocationID;
    [[unroll]] for (uint s = min(gl_SubgroupSize, WG / 2); s > 0; s >>= 1) {
      if (lane < s) sdata[lane] = OP(sdata[lane], sdata[lane + s]);
      subgroupMemoryBarrierShared();
      subgroupBarrier();
    }
    if (lane == 0) dst_set(pc.out_offset + group, sdata[0]);
  }
}
