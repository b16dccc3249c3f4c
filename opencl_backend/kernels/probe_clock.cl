// The SM clock probe behind Backend::clock_probe on NVIDIA (as cuda_backend/library/sm_clock.cu,
// nvbench's gpu_frequency): one work-item reads %clock64 and %globaltimer by inline PTX over a
// window of `param` nanoseconds that starts on an edge of the timer and ends on the first reading
// past it, and writes dst as two ulongs: [0] the cycles, [1] the nanoseconds. The host runs it
// only where XR_SG_PTX is set (NVIDIA); elsewhere it still builds, and writes zeros.
XR_KERNEL {
  XR_UNUSED_ARGS;
  __global ulong* out = (__global ulong*)dst;
  if (get_global_id(0) != 0) return;
#ifdef XR_SG_PTX
  const ulong first = global_ns();
  ulong t0 = global_ns();
  while (t0 == first) t0 = global_ns();
  const ulong c0 = sm_cycles();
  ulong t1 = t0;
  do {
    t1 = global_ns();
  } while (t1 - t0 < (ulong)param);
  const ulong c1 = sm_cycles();
  out[0] = c1 - c0;
  out[1] = t1 - t0;
#else
  out[0] = 0ul;
  out[1] = 0ul;
#endif
}
