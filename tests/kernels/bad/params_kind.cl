// A reduce with the ABI's three arguments but n as a ulong: the count is right, the kind is not,
// and the driver refuses the launch's uint (exit 2, naming argument 3).
// xreduce: dtypes=i32
__kernel void xr_reduce(__global const XR_T* in, __global XR_ACC* partials, ulong n) {
  if (get_local_id(0) == 0) partials[get_group_id(0)] = in[get_group_id(0) * XR_TILE];
}
