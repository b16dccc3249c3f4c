// The divergent-step experiment (bench/gpu/opencl/run): Harris step 1 in OpenCL C with the
// work-group size a compile-time constant (XR_BLOCK), as OpenCL's built-in smem/interleaved-
// divergent has it (WG): the loop unrolls and each `tid % (2 s)` is a mask.
// xreduce: primitive=reduce dtypes=i32,f32 ops=sum block=256
__kernel void xr_reduce(__global const XR_T* in, __global XR_ACC* partials, uint n) {
  __local XR_ACC s[XR_BLOCK];
  const uint tid = get_local_id(0);
  const uint i = get_global_id(0);
  s[tid] = i < n ? XR_TO_ACC(in[i]) : XR_IDENTITY;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint st = 1; st < XR_BLOCK; st *= 2) {
    if (tid % (2 * st) == 0) s[tid] = XR_OP(s[tid], s[tid + st]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) partials[get_group_id(0)] = s[0];
}
