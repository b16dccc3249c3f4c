// A reduce without extern "C": its entry point's name is mangled, so `xr_reduce` is not found and
// the message lists the names the module has (exit 2).
// xreduce: dtypes=i32
__global__ void xr_reduce(const XR_T* in, XR_ACC* partials, unsigned int n) {
  if (threadIdx.x == 0) partials[blockIdx.x] = in[blockIdx.x * XR_TILE];
}
