#version 450
// A reduce whose shared array is sized by its workgroup, which xreduce sets through
// specialization constant 0 (local_size_x_id = 0, block=256): gl_WorkGroupSize.x * 4096 ints,
// 4 MiB once specialized. The check evaluates the length as the pipeline will specialize it, and
// refuses the file before it runs (exit 2).
// xreduce: dtypes=i32 block=256
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly buffer In { XR_T xs[]; };
layout(std430, binding = 1) writeonly buffer Out { XR_ACC partials[]; };

shared int s[gl_WorkGroupSize.x * 4096];

void main() {
  const uint tid = gl_LocalInvocationID.x;
  s[tid * 4096u] = int(xs[gl_GlobalInvocationID.x]);
  barrier();
  if (tid == 0) {
    int acc = 0;
    for (uint k = 0; k < gl_WorkGroupSize.x; ++k) acc += s[k * 4096u];
    partials[gl_WorkGroupID.x] = XR_ACC(acc);
  }
}
