#version 450
#extension GL_EXT_control_flow_attributes : require
// The divergent-step experiment (bench/gpu/opencl/run): Harris step 1 in GLSL at 256
// invocations with its loop kept rolled ([[dont_unroll]]): `tid % (2 s)` is then a remainder by a
// value that changes each step, as in CUDA's built-in (blockDim.x) and, as the compiled facts show
// (docs/results/H200/compiled), in what NVIDIA's Vulkan compiler makes of the built-in shader.
// Twin of divergent_unrolled.comp.
// xreduce: primitive=reduce dtypes=i32,f32 ops=sum
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Input { XR_T xs[]; };
layout(std430, binding = 1) writeonly buffer Partials { XR_ACC partials[]; };

shared XR_ACC sdata[256];

void main() {
  const uint tid = gl_LocalInvocationID.x;
  // No bound check: xreduce pads the input with the identity up to whole workgroups.
  sdata[tid] = XR_TO_ACC(xs[gl_GlobalInvocationID.x]);
  barrier();
  [[dont_unroll]] for (uint s = 1; s < 256; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] = XR_OP(sdata[tid], sdata[tid + s]);
    barrier();
  }
  if (tid == 0) partials[gl_WorkGroupID.x] = sdata[0];
}
