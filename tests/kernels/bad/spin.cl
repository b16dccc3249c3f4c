// A reduce that never finishes, in OpenCL C: every work-item waits for an element equal to
// 123456789, which none of the data (small: 0 to 255) or the padding (0) is; the loop reads
// through a volatile pointer, so no compiler may drop it. The run ends at XR_DEVICE_TIMEOUT with
// exit 5, and the process exits without waiting for the device.
// xreduce: dtypes=i32
__kernel void xr_reduce(__global const XR_T* in, __global XR_ACC* partials, uint n) {
  __global const volatile XR_T* v = in;
  uint i = 0;
  while (v[i % XR_TILE] != 123456789) ++i;
  partials[get_group_id(0)] = (XR_ACC)i;
}
