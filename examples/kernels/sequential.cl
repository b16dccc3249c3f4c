// Sequential addressing (Harris step 3, seed 003 #3) in OpenCL C at the seed's 64 work-items, for
// every dtype and op through the ABI's macros: the twin of sequential.comp and
// seed003_3_sequential.hlsl, so a third front end (the OpenCL driver's) compiles the same
// algorithm at the same size. f16 (`half`) needs cl_khr_fp16, which pocl and NVIDIA's driver do
// not report: add it to dtypes= on a device that does.
// xreduce: primitive=reduce dtypes=i32,u32,f32,i64,u64,f64 ops=sum,min,max block=64
__kernel void xr_reduce(__global const XR_T* in, __global XR_ACC* partials, uint n) {
  __local XR_ACC sdata[XR_BLOCK];
  const uint tid = get_local_id(0);
  // No bound check: xreduce pads the input with the identity up to whole work-groups.
  sdata[tid] = XR_TO_ACC(in[get_global_id(0)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = XR_BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = XR_OP(sdata[tid], sdata[tid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) partials[get_group_id(0)] = sdata[0];
}
