// bit/between-blocks build (shaders/bit_build_between.comp, CUDA's gen_bit_between_blocks): one
// work-group (groups = 1) builds every level from idx = param (2 WG) up while idx <= n (IDX:
// levels reach 2^32 once n does), its work-items striding over the positions p = k * idx of a
// level (k from tid + 1, in steps of WG), a work-group barrier with a global fence between
// levels. The tree is read across work-items within the launch; barrier(CLK_GLOBAL_MEM_FENCE)
// orders and publishes those global accesses within the work-group.
XR_KERNEL {
  XR_UNUSED_ARGS;
  const uint group = (uint)get_group_id(0);
  if (group >= groups) return;  // uniform in the work-group
  const uint tid = (uint)get_local_id(0);
  const IDX count = (IDX)n;
  // Uniform loop (arguments only): every work-item reaches every barrier.
  for (IDX idx = (IDX)param; idx <= count; idx *= 2u) {
    const IDX positions = count / idx;  // p = k * idx <= n without overflow
    for (IDX k = (IDX)tid + 1u; k <= positions; k += WG) {
      const IDX node = aux_offset + k * idx - 1u;
      const T left = aux[node - idx / 2u];
      const T self = aux[node];
      aux[node] = OP(left, self);
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (idx > count / 2u) break;  // the next level is past n; idx * 2 could overflow
  }
}
