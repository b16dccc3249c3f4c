// A reduce that does not compile: line 5 uses a name nothing declares (exit 2, FILE:5).
// xreduce: dtypes=i32
extern "C" __global__ void xr_reduce(const XR_T* in, XR_ACC* partials, unsigned int n) {
  const unsigned tid = threadIdx.x;
  if (tid == 0) partials[blockIdx.x] = undeclared;
}
