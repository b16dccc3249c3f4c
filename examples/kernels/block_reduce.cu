// The smallest kernel of the reduce ABI, for every dtype and op through the macros (the one
// docs/kernels.md starts from): one element per thread into shared memory, the sequential
// addressing tree (Harris step 3), one partial per block. xreduce runs it again over the
// partials until one value is left. Built-in CUDA version of the same tree: smem/sequential.
// xreduce: primitive=reduce dtypes=i32,u32,f32,i64,u64,f64,f16,bf16 ops=sum,min,max block=256
extern "C" __global__ void xr_reduce(const XR_T* in, XR_ACC* partials, unsigned int n) {
  __shared__ XR_ACC s[XR_BLOCK];
  const unsigned i = blockIdx.x * XR_BLOCK + threadIdx.x;
  s[threadIdx.x] = XR_TO_ACC(in[i]);  // no bound check: the input is padded to whole blocks
  __syncthreads();
  for (unsigned k = XR_BLOCK / 2; k > 0; k /= 2) {
    if (threadIdx.x < k) s[threadIdx.x] = XR_OP(s[threadIdx.x], s[threadIdx.x + k]);
    __syncthreads();
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = s[0];  // one partial per block
}
