// smem/complete-unroll (Harris #6, classic CompleteUnroll<iBlockSize>): #5 with every step written
// out for the compile-time WG (shaders/smem_unrolled.glsl); dead steps fold away at build time.
#if SG > 32
#error "the sub-group steps below start at 32"
#endif
#define XR_WG_STEP(S)                                         \
  if (WG > S && S > SG) {                                     \
    if (tid < S) sdata[tid] = OP(sdata[tid], sdata[tid + S]); \
    barrier(CLK_LOCAL_MEM_FENCE);                             \
  }
#define XR_SG_STEP(S)                                              \
  if (WG > S && S <= SG) {                                         \
    if (lane < S) sdata[lane] = OP(sdata[lane], sdata[lane + S]); \
    sg_barrier();                                                  \
  }

XR_KERNEL {
  XR_UNUSED_ARGS;
  __local T sdata[WG];
  const uint group = (uint)get_group_id(0);
  const uint tid = (uint)get_local_id(0);
  const IDX i = (IDX)group * (2u * WG) + tid;
  sdata[tid] = OP(LOAD_OR_IDENTITY(i), LOAD_OR_IDENTITY(i + WG));
  barrier(CLK_LOCAL_MEM_FENCE);
  XR_WG_STEP(512u) XR_WG_STEP(256u) XR_WG_STEP(128u) XR_WG_STEP(64u) XR_WG_STEP(32u)
  XR_WG_STEP(16u) XR_WG_STEP(8u) XR_WG_STEP(4u) XR_WG_STEP(2u) XR_WG_STEP(1u)
  if (sg_id() == 0u) {
    const uint lane = sg_lane();
    XR_SG_STEP(32u) XR_SG_STEP(16u) XR_SG_STEP(8u) XR_SG_STEP(4u) XR_SG_STEP(2u) XR_SG_STEP(1u)
    if (lane == 0u) dst[out_offset + group] = sdata[0];
  }
}
