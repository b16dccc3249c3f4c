// A reduce whose reqd_work_group_size (128) is not the block it declares (64): the launch would
// fail with CL_INVALID_WORK_GROUP_SIZE; it is refused before it runs (exit 2), naming both.
// xreduce: dtypes=i32 block=64
__kernel __attribute__((reqd_work_group_size(128, 1, 1))) void xr_reduce(
    __global const XR_T* in, __global XR_ACC* partials, uint n) {
  if (get_local_id(0) == 0) partials[get_group_id(0)] = XR_TO_ACC(in[get_group_id(0) * XR_TILE]);
}
