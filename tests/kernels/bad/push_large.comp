#version 450
// A reduce whose push-constant block takes 1 KiB (n, tiles and 254 words more), past every
// device's maxPushConstantsSize (256 bytes on an H200, 128 on lavapipe), let alone the ABI's 8
// bytes: refused before it runs (exit 2), naming the device's limit first.
// xreduce: dtypes=i32
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { XR_T xs[]; };
layout(std430, binding = 1) writeonly buffer Out { XR_ACC partials[]; };
layout(push_constant) uniform Push {
  uint n;
  uint tiles;
  uint extra[254];
} pc;

shared XR_ACC sdata[64];

void main() {
  const uint tid = gl_LocalInvocationID.x;
  sdata[tid] = XR_TO_ACC(xs[gl_GlobalInvocationID.x]);
  if (pc.extra[253] == 0xdeadbeefu) sdata[tid] = XR_ACC(7);  // read: the block stays whole
  barrier();
  for (uint s = 32; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = XR_OP(sdata[tid], sdata[tid + s]);
    barrier();
  }
  if (tid == 0) partials[gl_WorkGroupID.x] = sdata[0];
}
