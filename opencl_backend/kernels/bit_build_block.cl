// bit/* build, the levels inside a work-group (shaders/bit_build_block.comp, CUDA's
// gen_bit_in_one_block; bit_build_block_unrolled.cl is bit/unrolled's copy with the level loop
// unrolled): each work-group copies its WG-element slice of the input into the Fenwick tree (aux
// from aux_offset) and builds the levels idx = 2 .. WG in place in global memory, a work-group
// barrier with a global fence between levels (p - idx/2 stays inside the slice for idx <= WG).
// The tree is read across work-items within the launch; barrier(CLK_GLOBAL_MEM_FENCE) orders
// and publishes those global accesses within the work-group (OpenCL 1.2 3.3.1).
XR_KERNEL {
  XR_UNUSED_ARGS;
  const uint group = (uint)get_group_id(0);
  if (group >= groups) return;  // uniform in the work-group
  const IDX i = (IDX)group * WG + (uint)get_local_id(0);
  const IDX node = aux_offset + i;
  if (i < (IDX)n) aux[node] = LOAD(src, in_offset + i);
  barrier(CLK_GLOBAL_MEM_FENCE);
  // Work-items past n take part in every barrier and do nothing else.
#pragma unroll 1
  for (uint idx = 2u; idx <= WG; idx *= 2u) {
    if (i < (IDX)n && ((i + 1u) & (idx - 1u)) == 0u) {
      const T left = aux[node - idx / 2u];
      const T self = aux[node];
      aux[node] = OP(left, self);
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
}
