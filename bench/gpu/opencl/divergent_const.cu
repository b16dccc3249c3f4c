// The divergent-step experiment (bench/gpu/opencl/run): Harris step 1 with the block size
// a compile-time constant (XR_BLOCK), as OpenCL's built-in kernel has it (WG, with
// reqd_work_group_size): the loop unrolls and each `tid % (2 s)` is a mask. The same algorithm
// as divergent_blockdim.cu; only where the block size comes from differs.
// xreduce: primitive=reduce dtypes=i32,f32 ops=sum block=256
extern "C" __global__ void xr_reduce(const XR_T* in, XR_ACC* partials, unsigned int n) {
  __shared__ XR_ACC s[XR_BLOCK];
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * XR_BLOCK + tid;
  s[tid] = i < n ? XR_TO_ACC(in[i]) : XR_IDENTITY;
  __syncthreads();
  for (unsigned st = 1; st < XR_BLOCK; st *= 2) {
    if (tid % (2 * st) == 0) s[tid] = XR_OP(s[tid], s[tid + st]);
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = s[0];
}
