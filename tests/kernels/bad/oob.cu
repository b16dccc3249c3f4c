// A reduce that writes far past its partials (2^30 elements on): the device faults (exit 5), and
// compute-sanitizer --tool memcheck names the write (docs/kernels.md, "Bad kernels").
// xreduce: dtypes=i32
extern "C" __global__ void xr_reduce(const XR_T* in, XR_ACC* partials, unsigned int n) {
  if (threadIdx.x == 0) partials[blockIdx.x + (1u << 30)] = in[blockIdx.x * XR_TILE];
}
