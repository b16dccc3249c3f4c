#version 450
// The tail experiment (bench/gpu/tail/run): a rolled subgroup tail as a user's kernel - workgroup
// barriers down to 32 live slots, then subgroup 0 from 16 with subgroupMemoryBarrierShared() and
// subgroupBarrier(), its loops rolled - beside the built-in's CUDA shape (tail_warp.comp).
// H200 only: assumes 32-invocation subgroups.
// xreduce: primitive=reduce dtypes=i32,f32 ops=sum block=256 items=2
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Input { XR_T xs[]; };
layout(std430, binding = 1) writeonly buffer Partials { XR_ACC partials[]; };
shared XR_ACC s[256];

void main() {
  const uint tid = gl_LocalInvocationID.x, i = gl_WorkGroupID.x * 512 + tid;
  s[tid] = XR_OP(XR_TO_ACC(xs[i]), XR_TO_ACC(xs[i + 256]));
  barrier();
  for (uint k = 128; k >= gl_SubgroupSize; k >>= 1) {
    if (tid < k) s[tid] = XR_OP(s[tid], s[tid + k]);
    barrier();
  }
  if (gl_SubgroupID == 0) {
    const uint lane = gl_SubgroupInvocationID;
    for (uint k = gl_SubgroupSize / 2; k > 0; k >>= 1) {
      if (lane < k) s[lane] = XR_OP(s[lane], s[lane + k]);
      subgroupMemoryBarrierShared();
      subgroupBarrier();
    }
  }
  if (tid == 0) partials[gl_WorkGroupID.x] = s[0];
}
