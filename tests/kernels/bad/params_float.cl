// A reduce whose n is a float: the size of the ABI's uint, so clSetKernelArg takes it, but its
// bits would be read as a float. Refused before anything runs, by the argument's type name.
// xreduce: dtypes=f32
__kernel void xr_reduce(__global const XR_T* in, __global XR_ACC* partials, float n) {
  if (get_global_id(0) == 0) partials[0] = (XR_ACC)n;
}
