// A reduce whose work-items each hold a 16 MiB private array: a CPU device (pocl) runs a
// work-group on one worker thread's stack, which no such array fits. Refused before it runs where
// the driver reports CL_KERNEL_PRIVATE_MEM_SIZE; pocl 3.1 reports 1024 bytes whatever a kernel
// holds, so there the stack overflows, and the run ends in the fault guard's one line (exit 5)
// where it would otherwise die of a SIGSEGV without a word.
// xreduce: dtypes=i32 block=64
__kernel void xr_reduce(__global const XR_T* in, __global XR_ACC* partials, uint n) {
  int p[4194304];
  const uint t = get_local_id(0);
  for (uint i = 0; i < 4194304u; ++i) p[i] = in[(get_global_id(0) + i) % n] + (int)i;
  if (t == 0) partials[get_group_id(0)] = (XR_ACC)p[(uint)in[0] % 4194304u];
}
