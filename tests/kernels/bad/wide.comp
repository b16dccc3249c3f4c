#version 450
// A reduce of 2048 invocations per workgroup, past maxComputeWorkGroupSize[0] and
// maxComputeWorkGroupInvocations (1024 on an H200 and on lavapipe): refused before it runs
// (exit 2). glslang refuses this source itself ("'local_size' : too large"); the device's own
// limits are checked on the module, which a prebuilt .spv meets first (cli_tests builds one).
// xreduce: dtypes=i32
layout(local_size_x = 2048) in;
layout(std430, binding = 0) readonly buffer In { XR_T xs[]; };
layout(std430, binding = 1) writeonly buffer Out { XR_ACC partials[]; };

shared XR_ACC sdata[2048];

void main() {
  const uint tid = gl_LocalInvocationID.x;
  sdata[tid] = XR_TO_ACC(xs[gl_GlobalInvocationID.x]);
  barrier();
  for (uint s = 1024; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = XR_OP(sdata[tid], sdata[tid + s]);
    barrier();
  }
  if (tid == 0) partials[gl_WorkGroupID.x] = sdata[0];
}
