// A reduce that writes far past its partials (2^30 elements on), in OpenCL C: a GPU faults (exit
// 5, "the kernel faulted: an out-of-bounds access?"); a CPU device (pocl), which runs the kernel
// in xreduce's own threads, faults the process, which ends in the same one line (exit 5).
// xreduce: dtypes=i32
__kernel void xr_reduce(__global const XR_T* in, __global XR_ACC* partials, uint n) {
  if (get_local_id(0) == 0) partials[get_group_id(0) + (1u << 30)] = in[get_group_id(0) * XR_TILE];
}
