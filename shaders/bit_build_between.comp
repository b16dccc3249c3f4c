#version 450
// bit/between-blocks build (CUDA's gen_bit_between_blocks): one workgroup (pc.groups = 1) builds
// every level from idx = pc.param up while idx <= n (64-bit: levels reach 2^32 once n does), its
// invocations striding over the positions p = k * idx of a level (k from tid + 1, in steps of
// WG), a buffer barrier between levels. The tree is read across invocations within the dispatch:
// coherent, and ordered by a workgroup-scope control barrier with buffer semantics. GLSL450
// memory model with explicit scopes (see fast_single_pass.comp for why).
#extension GL_KHR_memory_scope_semantics : require
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
  const uint tid = gl_LocalInvocationID.x;
  // Uniform loop (push constants only): every invocation reaches every barrier.
  for (IDX idx = pc.param; idx <= PC_N; idx *= 2) {
    const IDX positions = PC_N / idx;  // p = k * idx <= n without overflow
    for (IDX k = tid + 1; k <= positions; k += WG) {
      const IDX node = pc.aux_offset + k * idx - 1;
      TREE(node) = OP(TREE(node - idx / 2), TREE(node));
    }
    buffer_barrier();
    if (idx > PC_N / 2) break;  // the next level is past n; idx * 2 could overflow
  }
}
