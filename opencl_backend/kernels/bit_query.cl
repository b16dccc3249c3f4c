// bit/one-layer and bit/between-blocks query (shaders/bit_query.comp, CUDA's calc_sum_using_bit,
// the original's first form): output i is the Fenwick prefix of position i + 1 (inclusive) or i
// (exclusive), accumulated from the right end leftwards (node op acc) in the output element
// itself. The output is volatile, as the original's pointer was: one real global read-modify-write
// per tree node, which is what this variant measures.
// f16/bf16: the output element cannot hold the float accumulator without rounding at every node,
// so those accumulate in a register and store once.
XR_KERNEL {
  XR_UNUSED_ARGS;
  const uint group = (uint)get_group_id(0);
  if (group >= groups) return;
  const IDX i = (IDX)group * WG + (uint)get_local_id(0);
  if (i >= (IDX)n) return;  // no barrier below
  const IDX o = out_offset + i;
#ifdef ACC_F32
  T acc = IDENTITY;
  for (IDX j = EXCLUSIVE_SCAN() ? i : i + 1u; j > 0u; j -= j & (~j + 1u)) {
    const T node = aux[aux_offset + j - 1u];
    acc = OP(node, acc);
  }
  DST_STORE(dst, o, acc);
#else
  volatile __global D* out = (volatile __global D*)dst;  // D is T here: elements are accumulators
  out[o] = IDENTITY;
  for (IDX j = EXCLUSIVE_SCAN() ? i : i + 1u; j > 0u; j -= j & (~j + 1u)) {
    const T node = aux[aux_offset + j - 1u];
    const T acc = out[o];  // one volatile load: OP may name its operands twice
    out[o] = OP(node, acc);
  }
#endif
}
