#version 450
// Interleaved addressing with a strided index (Harris step 2, seed 003 #2) in GLSL at the seed's
// 64 invocations, for every dtype and op through the ABI's macros: the twin of
// seed003_2_strided.hlsl.
// xreduce: primitive=reduce dtypes=i32,u32,f32,i64,u64,f64,f16 ops=sum,min,max
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Input { XR_T xs[]; };
layout(std430, binding = 1) writeonly buffer Partials { XR_ACC partials[]; };

shared XR_ACC sdata[64];

void main() {
  const uint tid = gl_LocalInvocationID.x;
  // No bound check: xreduce pads the input with the identity up to whole workgroups.
  sdata[tid] = XR_TO_ACC(xs[gl_GlobalInvocationID.x]);
  barrier();
  for (uint s = 1; s < 64; s *= 2) {
    const uint index = 2 * s * tid;
    if (index < 64) sdata[index] = XR_OP(sdata[index], sdata[index + s]);
    barrier();
  }
  if (tid == 0) partials[gl_WorkGroupID.x] = sdata[0];
}
