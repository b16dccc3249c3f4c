// The completely unrolled shared-memory fold of Harris #6/#7. Every step is written out; the
// workgroup size WG is a specialization constant, so after specialization the device compiler
// drops the steps a smaller workgroup does not need (the counterpart of CUDA's
// `if (iBlockSize >= 512)` template chain). Steps above the subgroup size synchronise the
// workgroup; from the subgroup size down (2 x subgroup-size live slots, as CUDA's last warp
// reads 64) they run in subgroup 0 with subgroup barriers. The test against gl_SubgroupSize is
// uniform, so every barrier stays in uniform control flow, and the fold is correct for any
// subgroup size. Starting the subgroup tail at 2 x subgroup size beats a tail from 16 after a
// workgroup barrier at 32 (bench/gpu/tail; docs/results/H200/tuning-notes.md).
// Requires: shared T sdata[WG] filled and followed by barrier(); GL_KHR_shader_subgroup_basic.
// Result: sdata[0], visible to subgroup 0 only; write it from `if (gl_SubgroupID == 0)`.

#define XR_WG_STEP(S)                                               \
  if (WG > S && S > gl_SubgroupSize) {                              \
    if (tid < S) sdata[tid] = OP(sdata[tid], sdata[tid + S]);       \
    barrier();                                                      \
  }
#define XR_SG_STEP(S)                                               \
  if (WG > S && S <= gl_SubgroupSize) {                             \
    if (lane < S) sdata[lane] = OP(sdata[lane], sdata[lane + S]);   \
    subgroupMemoryBarrierShared();                                  \
    subgroupBarrier();                                              \
  }

void fold_shared_unrolled(uint tid) {
  XR_WG_STEP(512)
  XR_WG_STEP(256)
  XR_WG_STEP(128)
  XR_WG_STEP(64)
  XR_WG_STEP(32)
  XR_WG_STEP(16)
  XR_WG_STEP(8)
  XR_WG_STEP(4)
  XR_WG_STEP(2)
  XR_WG_STEP(1)
  if (gl_SubgroupID == 0) {
    const uint lane = gl_SubgroupInvocationID;
    XR_SG_STEP(128)
    XR_SG_STEP(64)
    XR_SG_STEP(32)
    XR_SG_STEP(16)
    XR_SG_STEP(8)
    XR_SG_STEP(4)
    XR_SG_STEP(2)
    XR_SG_STEP(1)
  }
}
