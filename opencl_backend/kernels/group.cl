// Sub-groups, for the kernels that work a warp at a time (the unrolled tails, the shuffles, the
// fast/* tiles). OpenCL 3.0 makes cl_khr_subgroups optional and neither NVIDIA's driver nor
// pocl 3.1 has it, so two providers are built:
//  - XR_SG_PTX: NVIDIA's warps of 32 through inline PTX (shfl.sync, bar.warp.sync), which
//    NVIDIA's OpenCL compiler takes; chosen by the host when a probe program with it builds.
//  - otherwise: sub-groups of one work-item. Every algorithm here is written for any power-of-two
//    sub-group size (nothing assumes 32: docs/design.md's contract), and one is the size without
//    hardware help: the unrolled tails then end at the last work-group barrier, and the
//    work-group combines go through local memory. The subgroup/* ids, which are the shuffles
//    themselves, are refused on such a device (the host names the feature).
// SG is the sub-group size; sg_id() and sg_lane() place a work-item in a 1-D work-group.
#ifdef XR_SG_PTX
#define SG 32u

// Orders local-memory writes of the warp's lanes before their later reads (CUDA's __syncwarp).
void sg_barrier(void) { __asm__ volatile("bar.warp.sync -1;" ::: "memory"); }

uint shfl_down_u32(uint x, uint d) {
  uint r;
  __asm__ volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, -1;" : "=r"(r) : "r"(x), "r"(d));
  return r;
}
uint shfl_up_u32(uint x, uint d) {
  uint r;
  __asm__ volatile("shfl.sync.up.b32 %0, %1, %2, 0x0, -1;" : "=r"(r) : "r"(x), "r"(d));
  return r;
}
uint shfl_xor_u32(uint x, uint m) {
  uint r;
  __asm__ volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, -1;" : "=r"(r) : "r"(x), "r"(m));
  return r;
}
uint shfl_idx_u32(uint x, uint lane) {
  uint r;
  __asm__ volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, -1;" : "=r"(r) : "r"(x), "r"(lane));
  return r;
}

// T through 32-bit shuffles: one for 4-byte types, two halves for 8-byte ones.
#define AS_T_(t, x) as_##t(x)
#define AS_T(t, x) AS_T_(t, x)
#if T_BYTES == 4
#define SG_SHUFFLE(fn, x, a) AS_T(T, fn(as_uint(x), (a)))
#else
#define SG_SHUFFLE(fn, x, a) \
  AS_T(T, (uint2)(fn(as_uint2(x).x, (a)), fn(as_uint2(x).y, (a))))
#endif
T sg_shuffle_down(T x, uint d) { return SG_SHUFFLE(shfl_down_u32, x, d); }
T sg_shuffle_up(T x, uint d) { return SG_SHUFFLE(shfl_up_u32, x, d); }
T sg_shuffle_xor(T x, uint m) { return SG_SHUFFLE(shfl_xor_u32, x, m); }
T sg_broadcast(T x, uint lane) { return SG_SHUFFLE(shfl_idx_u32, x, lane); }
#else
#define SG 1u
void sg_barrier(void) {}
T sg_shuffle_down(T x, uint d) { return (void)d, x; }
T sg_shuffle_up(T x, uint d) { return (void)d, x; }
T sg_shuffle_xor(T x, uint m) { return (void)m, x; }
T sg_broadcast(T x, uint lane) { return (void)lane, x; }
#endif

uint sg_lane(void) { return (uint)get_local_id(0) & (SG - 1u); }
uint sg_id(void) { return (uint)get_local_id(0) / SG; }

// The sub-group's combination of x, in every lane (butterfly), and its inclusive scan
// (Kogge-Stone over shuffles up).
T sg_reduce(T x) {
  for (uint m = SG / 2u; m > 0u; m >>= 1) x = OP(x, sg_shuffle_xor(x, m));
  return x;
}
T sg_inclusive(T x) {
  const uint lane = sg_lane();
  for (uint d = 1u; d < SG; d <<= 1) {
    const T y = sg_shuffle_up(x, d);
    if (lane >= d) x = OP(y, x);
  }
  return x;
}

// The work-group's combination of each work-item's x, valid in work-item 0. `slots` holds WG
// accumulators. Every work-item calls it (it has work-group barriers); slots may be reused after
// the next barrier.
T wg_reduce(T x, __local T* slots) {
  const uint tid = (uint)get_local_id(0);
#if SG > 1
  x = sg_reduce(x);
  if (sg_lane() == 0u) slots[sg_id()] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tid < SG) {
    x = IDENTITY;
    for (uint s = tid; s < WG / SG; s += SG) x = OP(x, slots[s]);
    x = sg_reduce(x);
  }
  return x;
#else
  slots[tid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG / 2u; s > 0u; s >>= 1) {
    if (tid < s) slots[tid] = OP(slots[tid], slots[tid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return slots[0];
#endif
}

// The work-group's exclusive scan of each work-item's x (identity in work-item 0), and its total
// in every work-item. `slots` holds 2 WG accumulators. Ends with a barrier: slots are free after.
T wg_exclusive_scan(T x, __local T* slots, T* total) {
  const uint tid = (uint)get_local_id(0);
#if SG > 1
  const T inclusive = sg_inclusive(x);
  if (sg_lane() == SG - 1u) slots[sg_id()] = inclusive;
  barrier(CLK_LOCAL_MEM_FENCE);
  // Sub-group 0 scans the sub-group totals, SG at a time with a carry (WG / SG of them).
  if (tid < SG) {
    T carry = IDENTITY;
    for (uint base = 0u; base < WG / SG; base += SG) {
      const T v = base + tid < WG / SG ? slots[base + tid] : IDENTITY;
      const T s = OP(carry, sg_inclusive(v));
      if (base + tid < WG / SG) slots[WG + base + tid] = s;
      carry = sg_broadcast(s, SG - 1u);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint sg = sg_id();
  const T before = sg ? slots[WG + sg - 1u] : IDENTITY;
  *total = slots[WG + WG / SG - 1u];
  const T previous = sg_shuffle_up(inclusive, 1u);
  const T result = sg_lane() ? OP(before, previous) : before;
  barrier(CLK_LOCAL_MEM_FENCE);
  return result;
#else
  // Hillis-Steele over two buffers of WG slots.
  __local T* in = slots;
  __local T* out = slots + WG;
  in[tid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = 1u; d < WG; d <<= 1) {
    out[tid] = tid >= d ? OP(in[tid - d], in[tid]) : in[tid];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local T* t = in;
    in = out;
    out = t;
  }
  const T inclusive = in[tid];
  *total = in[WG - 1u];
  const T result = tid ? in[tid - 1u] : IDENTITY;
  barrier(CLK_LOCAL_MEM_FENCE);
  return (void)inclusive, result;
#endif
}
