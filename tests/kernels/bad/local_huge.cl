// A reduce that declares 4 MB of local memory (`__local int s[1000000]`), past every device's
// CL_DEVICE_LOCAL_MEM_SIZE (48 KiB on NVIDIA's driver, 1 MiB on pocl): refused before it runs
// (exit 2), naming the file, the limit and the value, or by the driver's own build (exit 2).
// xreduce: dtypes=i32
__kernel void xr_reduce(__global const XR_T* in, __global XR_ACC* partials, uint n) {
  __local int s[1000000];
  const uint tid = get_local_id(0);
  s[tid * 15619u] = (int)in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tid == 0) {
    int acc = 0;
    for (uint k = 0; k < XR_BLOCK; ++k) acc += s[k * 15619u];
    partials[get_group_id(0)] = (XR_ACC)acc;
  }
}
