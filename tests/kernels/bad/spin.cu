// A reduce that never finishes: every thread waits for an element equal to 123456789, which none
// of the data (small: 0 to 255) or the padding (0) is. The run ends at XR_DEVICE_TIMEOUT with
// exit 5, and the process exits without waiting for the device.
// xreduce: dtypes=i32
extern "C" __global__ void xr_reduce(const XR_T* in, XR_ACC* partials, unsigned int n) {
  const volatile XR_T* v = in;
  unsigned i = 0;
  while (v[i % XR_TILE] != 123456789) ++i;
  partials[blockIdx.x] = i;
}
