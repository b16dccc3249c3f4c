// A reduce that keeps 128 loaded values live per thread (every value is combined with every
// other only after all are loaded), so ptxas gives it well over 64 registers per thread: at
// block=1024 that is past the 65536 registers an NVIDIA SM gives one block. Compiles; on a GPU
// the backend refuses it before the first launch (exit 2), naming the registers and the limit.
// xreduce: dtypes=i32 block=1024
extern "C" __global__ void xr_reduce(const XR_T* in, XR_ACC* partials, unsigned int n) {
  constexpr int kLive = 128;
  XR_ACC v[kLive];
  const unsigned base = blockIdx.x * XR_BLOCK + threadIdx.x;
#pragma unroll
  for (int j = 0; j < kLive; ++j) v[j] = XR_TO_ACC(in[(base + j * 4099u) % n]);
  XR_ACC acc = XR_IDENTITY;
#pragma unroll
  for (int j = 0; j < kLive; ++j) acc = XR_OP(acc, v[j] * v[(j * 37 + 11) % kLive]);
  __shared__ XR_ACC s[XR_BLOCK];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned k = XR_BLOCK / 2; k > 0; k /= 2) {
    if (threadIdx.x < k) s[threadIdx.x] = XR_OP(s[threadIdx.x], s[threadIdx.x + k]);
    __syncthreads();
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = s[0];
}
