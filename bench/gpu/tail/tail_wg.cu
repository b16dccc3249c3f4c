// The tail experiment (bench/gpu/tail/run): first-add and every step with a block barrier, the
// baseline of the subgroup tails beside it. H200 only: assumes 32-lane warps.
// xreduce: primitive=reduce dtypes=i32,f32 ops=sum block=256 items=2
extern "C" __global__ void xr_reduce(const XR_T* in, XR_ACC* partials, unsigned int n) {
  __shared__ XR_ACC s[256];
  const unsigned tid = threadIdx.x, i = blockIdx.x * 512 + tid;
  s[tid] = XR_OP(XR_TO_ACC(in[i]), XR_TO_ACC(in[i + 256]));
  __syncthreads();
#pragma unroll
  for (unsigned k = 128; k > 0; k >>= 1) {
    if (tid < k) s[tid] = XR_OP(s[tid], s[tid + k]);
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = s[0];
}
