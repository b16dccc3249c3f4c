// bit/one-layer build, one level above the work-group per launch (shaders/bit_build_level.comp,
// CUDA's gen_bit_one_layer): at level idx = 2^param, every 1-based position i + 1 that is a
// multiple of idx absorbs the node idx/2 to its left. The level comes as its exponent: param is
// 32-bit, and levels reach 2^32 once n does. Nodes written at a level are never read at that
// level (p - idx/2 is an odd multiple of idx/2), and the launch boundary orders the levels.
XR_KERNEL {
  XR_UNUSED_ARGS;
  const uint group = (uint)get_group_id(0);
  if (group >= groups) return;
  const IDX i = (IDX)group * WG + (uint)get_local_id(0);
  const IDX idx = (IDX)1u << param;
  if (i < (IDX)n && ((i + 1u) & (idx - 1u)) == 0u) {
    const IDX node = aux_offset + i;
    const T left = aux[node - idx / 2u];
    const T self = aux[node];
    aux[node] = OP(left, self);
  }
}
