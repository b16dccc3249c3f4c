#version 450
// A reduce that never finishes, in GLSL: every invocation loops until an element equals
// 123456789, which none of the data (small: 0 to 255) or the padding (0) does; the loop writes,
// so no compiler may drop it. The run ends at XR_DEVICE_TIMEOUT with exit 5. lavapipe stops a
// loop after 65535 iterations: over 2M elements that still keeps it busy for minutes.
// xreduce: dtypes=i32
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { XR_T xs[]; };
layout(std430, binding = 1) coherent buffer Out { XR_ACC partials[]; };

void main() {
  for (uint i = 0; xs[i % 64u] != 123456789; ++i) partials[gl_WorkGroupID.x] = XR_ACC(i);
}
