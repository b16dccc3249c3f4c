// The blocking kernel behind XR_CL_GATE=kernel (nvbench's, as CUDA's timing gate): one work-item
// spins until the host raises dst[0], so the commands enqueued behind it reach the device before
// the interval starts and then run back to back. dst is the flags (int[2]: release, gave up) in
// device memory, raised by a write on another queue (adapter/cl_gate.hpp); a wait longer than
// `param` milliseconds (the clock by %globaltimer on NVIDIA, elsewhere a bound on the polls) gives
// up and raises dst[1], so a release that never comes costs one error, never a hang.
XR_KERNEL {
  XR_UNUSED_ARGS;
  __global volatile int* gate = (__global volatile int*)dst;
  if (get_global_id(0) != 0) return;
  // ns on NVIDIA; elsewhere polls, each at least a nanosecond
  const ulong wait_limit = (ulong)param * 1000000ul;
#ifdef XR_SG_PTX
  const ulong t0 = global_ns();
  while (gate[0] == 0) {
    if (global_ns() - t0 > wait_limit) {
      gate[1] = 1;
      return;
    }
  }
#else
  for (ulong polls = 0ul; gate[0] == 0; ++polls) {
    if (polls > wait_limit) {
      gate[1] = 1;
      return;
    }
  }
#endif
}
