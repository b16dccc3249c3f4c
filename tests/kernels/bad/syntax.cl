// A reduce that does not compile: line 5 uses a name nothing declares (exit 2, FILE:5).
// xreduce: dtypes=i32
__kernel void xr_reduce(__global const XR_T* in, __global XR_ACC* partials, uint n) {
  const uint tid = get_local_id(0);
  if (tid == 0) partials[get_group_id(0)] = undeclared;
}
