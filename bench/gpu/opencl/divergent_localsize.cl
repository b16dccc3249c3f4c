// The divergent-step experiment (bench/gpu/opencl/run): Harris step 1 in OpenCL C with the
// work-group size read at run time (get_local_size(0)), as CUDA's built-in reads blockDim.x.
// Twin of divergent_const.cl, which knows it at compile time, as OpenCL's built-in does.
// xreduce: primitive=reduce dtypes=i32,f32 ops=sum block=256
__kernel void xr_reduce(__global const XR_T* in, __global XR_ACC* partials, uint n) {
  __local XR_ACC s[XR_BLOCK];
  const uint tid = get_local_id(0);
  const uint i = get_global_id(0);
  s[tid] = i < n ? XR_TO_ACC(in[i]) : XR_IDENTITY;
  barrier(CLK_LOCAL_MEM_FENCE);
  // Read once: pocl 3.1 skips this loop when get_local_size(0) is its condition (checked here:
  // every sum was the first element alone); hoisted, it runs on every device.
  const uint size = get_local_size(0);
  for (uint st = 1; st < size; st *= 2) {
    if (tid % (2 * st) == 0) s[tid] = XR_OP(s[tid], s[tid + st]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) partials[get_group_id(0)] = s[0];
}
