// A reduce that declares 4 MB of shared memory (1000000 ints), past every NVIDIA GPU's per-block
// limit (48 KiB of static shared memory): ptxas refuses it when NVRTC compiles it, so xreduce
// refuses the file before anything runs (exit 2), with ptxas's line naming the size and the limit.
// xreduce: dtypes=i32
extern "C" __global__ void xr_reduce(const XR_T* in, XR_ACC* partials, unsigned int n) {
  __shared__ XR_ACC s[1000000];
  const unsigned i = blockIdx.x * XR_BLOCK + threadIdx.x;
  s[threadIdx.x * 3907u % 1000000u] = XR_TO_ACC(in[i]);
  __syncthreads();
  if (threadIdx.x == 0) {
    XR_ACC acc = XR_IDENTITY;
    for (unsigned k = 0; k < XR_BLOCK; ++k) acc = XR_OP(acc, s[k * 3907u % 1000000u]);
    partials[blockIdx.x] = acc;
  }
}
