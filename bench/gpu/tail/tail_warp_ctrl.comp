#version 450
// The tail experiment (bench/gpu/tail/run): smem/unroll-last-warp's CUDA shape - workgroup
// barriers down to 64 live slots, then subgroup 0 alone - with one control barrier of subgroup
// scope ordering workgroup memory after each step: __syncwarp()'s exact counterpart.
// H200 only: assumes 32-invocation subgroups.
// xreduce: primitive=reduce dtypes=i32,f32 ops=sum block=256 items=2
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Input { XR_T xs[]; };
layout(std430, binding = 1) writeonly buffer Partials { XR_ACC partials[]; };
shared XR_ACC s[256];

void main() {
  const uint tid = gl_LocalInvocationID.x, i = gl_WorkGroupID.x * 512 + tid;
  s[tid] = XR_OP(XR_TO_ACC(xs[i]), XR_TO_ACC(xs[i + 256]));
  barrier();
  [[unroll]] for (uint k = 128; k > 32; k >>= 1) {
    if (tid < k) s[tid] = XR_OP(s[tid], s[tid + k]);
    barrier();
  }
  if (tid < 32) {
    [[unroll]] for (uint k = 32; k > 0; k >>= 1) {
      if (tid < k) s[tid] = XR_OP(s[tid], s[tid + k]);
      controlBarrier(gl_ScopeSubgroup, gl_ScopeSubgroup, gl_StorageSemanticsShared,
                     gl_SemanticsAcquireRelease);
    }
  }
  if (tid == 0) partials[gl_WorkGroupID.x] = s[0];
}
