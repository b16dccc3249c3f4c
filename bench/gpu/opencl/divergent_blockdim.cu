// The divergent-step experiment (bench/gpu/opencl/run): Harris step 1 (the built-in
// smem/interleaved-divergent) with the block size read at run time, as the built-in CUDA kernel
// reads blockDim.x: `tid % (2 s)` is then an integer remainder by a value the compiler does not
// know, in a loop it cannot unroll. Twin of divergent_const.cu, which knows the block.
// xreduce: primitive=reduce dtypes=i32,f32 ops=sum block=256
extern "C" __global__ void xr_reduce(const XR_T* in, XR_ACC* partials, unsigned int n) {
  __shared__ XR_ACC s[XR_BLOCK];
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? XR_TO_ACC(in[i]) : XR_IDENTITY;
  __syncthreads();
  for (unsigned st = 1; st < blockDim.x; st *= 2) {
    if (tid % (2 * st) == 0) s[tid] = XR_OP(s[tid], s[tid + st]);
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = s[0];
}
