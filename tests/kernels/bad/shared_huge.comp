#version 450
// A reduce that declares 4 MB of shared memory (`shared int s[1000000]`), past every device's
// maxComputeSharedMemorySize (48 KiB on an H200, 32 KiB on lavapipe). Vulkan leaves such a
// dispatch undefined: unchecked, an H200 hangs for the whole device timeout and lavapipe sums
// wrong. So it is refused before any pipeline is made (exit 2), naming the file, the limit and
// the value.
// xreduce: dtypes=i32
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { XR_T xs[]; };
layout(std430, binding = 1) writeonly buffer Out { XR_ACC partials[]; };

shared int s[1000000];

void main() {
  const uint tid = gl_LocalInvocationID.x;
  s[tid * 15619u] = int(xs[gl_GlobalInvocationID.x]);
  barrier();
  if (tid == 0) {
    int acc = 0;
    for (uint k = 0; k < 64u; ++k) acc += s[k * 15619u];
    partials[gl_WorkGroupID.x] = XR_ACC(acc);
  }
}
