// A reduce whose entry point is not the ABI's xr_reduce (nor declared with entry=): the message
// names the missing entry and the kernels the program has (exit 2).
// xreduce: dtypes=i32
__kernel void reduce(__global const XR_T* in, __global XR_ACC* partials, uint n) {
  if (get_local_id(0) == 0) partials[get_group_id(0)] = in[get_group_id(0) * XR_TILE];
}
