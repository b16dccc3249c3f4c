// A correct reduce that also writes zeros (the sum's identity) a few hundred bytes past its last
// partial: inside the 256 KiB of slack every array has, partials included, so the stray writes
// land in memory of the run's own and `check` passes (on pocl, a CPU device, they would
// otherwise land in the process's heap).
// xreduce: dtypes=i32,u32 ops=sum block=64
__kernel void xr_reduce(__global const XR_T* in, __global XR_ACC* partials, uint n) {
  __local XR_ACC sdata[XR_BLOCK];
  const uint t = get_local_id(0);
  sdata[t] = XR_TO_ACC(in[get_global_id(0)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = XR_BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) sdata[t] = XR_OP(sdata[t], sdata[t + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0) partials[get_group_id(0)] = sdata[0];
  partials[get_num_groups(0) + 100 + t] = 0;
}
