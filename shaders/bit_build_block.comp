#version 450
// bit/* build, the levels inside a workgroup (CUDA's gen_bit_in_one_block, and with -DUNROLLED
// gen_bit_in_one_block_unrolled, bit/unrolled): each workgroup copies its WG-element slice of the
// input into the Fenwick tree (pc.aux from pc.aux_offset) and builds the levels idx = 2 .. WG
// in place in global memory, a buffer barrier between levels (p - idx/2 stays inside the slice
// for idx <= WG). The tree is read across invocations within the dispatch: coherent, and ordered
// by a workgroup-scope control barrier with buffer semantics (barrier() orders shared memory
// only). GLSL450 memory model with explicit scopes (see fast_single_pass.comp for why).
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_control_flow_attributes : require
#include "scan_common.glsl"

#ifdef XR_ADDRESS
layout(buffer_reference, std430, buffer_reference_align = T_BYTES) coherent buffer Tree { T v; };
#define TREE(node) Tree(pc.aux + IDX(node) * T_BYTES).v
#else
layout(set = 0, binding = 2) coherent buffer Tree { T tree[]; };
#define TREE(node) tree[uint(node)]
#endif

void buffer_barrier() {
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer,
                 gl_SemanticsAcquireRelease);
}

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const IDX i = IDX(group) * WG + gl_LocalInvocationID.x;
  const IDX node = pc.aux_offset + i;
  if (i < PC_N) TREE(node) = src_at(pc.in_offset + i);
  buffer_barrier();
  // Invocations past n take part in every barrier and do nothing else.
#if defined(UNROLLED)
  [[unroll]]
#else
  [[dont_unroll]]
#endif
  for (uint idx = 2; idx <= WG; idx *= 2) {
    if (i < PC_N && ((i + 1) & (idx - 1)) == 0)
      TREE(node) = OP(TREE(node - idx / 2), TREE(node));
    buffer_barrier();
  }
}
