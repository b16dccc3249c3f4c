// A reduce whose arguments are not the ABI's (__global const XR_T* in, __global XR_ACC* partials,
// uint n): it forgot n. Compiles; the backend refuses it before the first launch (exit 2).
// xreduce: dtypes=i32
__kernel void xr_reduce(__global const XR_T* in, __global XR_ACC* partials) {
  if (get_local_id(0) == 0) partials[get_group_id(0)] = in[get_group_id(0) * XR_TILE];
}
