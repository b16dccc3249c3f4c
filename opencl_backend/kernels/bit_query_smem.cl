// bit/smem and bit/unrolled query (shaders/bit_query_smem.comp, CUDA's calc_sum_using_bit_smem, the
// BIT scan's shared-memory query): the query of bit_query.cl accumulating in local memory at the
// work-item's own slot, written to the output once. The original's accumulator was volatile shared;
// GLSL has none, so the Vulkan shader keeps the shared round trip with a subgroup-scope shared
// memory barrier after each store. OpenCL C has volatile local memory, which keeps exactly the
// original's round trip (one local load and store per node) without a fence. No work-group barrier:
// nothing is shared between work-items.
XR_KERNEL {
  XR_UNUSED_ARGS;
  __local T acc_slots[WG];
  volatile __local T* acc = acc_slots;
  const uint group = (uint)get_group_id(0);
  if (group >= groups) return;
  const uint tid = (uint)get_local_id(0);
  acc[tid] = IDENTITY;
  const IDX i = (IDX)group * WG + tid;
  if (i >= (IDX)n) return;
  for (IDX j = EXCLUSIVE_SCAN() ? i : i + 1u; j > 0u; j -= j & (~j + 1u)) {
    const T node = aux[aux_offset + j - 1u];
    const T a = acc[tid];  // one volatile load: OP may name its operands twice
    acc[tid] = OP(node, a);
  }
  DST_STORE(dst, out_offset + i, acc[tid]);
}
