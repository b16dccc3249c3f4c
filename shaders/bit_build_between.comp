#version 450
// bit/between-blocks build (CUDA's gen_bit_between_blocks): one workgroup (pc.groups = 1) builds
// every level from idx = pc.param up while idx <= n, its invocations striding over the positions
// p = k * idx of a level (k from tid + 1, in steps of WG), a buffer barrier between levels. The
// tree is read across invocations within the dispatch: coherent, and ordered by a
// workgroup-scope control barrier with buffer semantics. GLSL450 memory model with explicit
// scopes (see fast_single_pass.comp for why).
#extension GL_KHR_memory_scope_semantics : require
#include "scan_common.glsl"

layout(set = 0, binding = 2) coherent buffer Tree { T tree[]; };

void buffer_barrier() {
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer,
                 gl_SemanticsAcquireRelease);
}

void main() {
  const uint group = linear_workgroup();
  if (group >= pc.groups) return;
  const uint tid = gl_LocalInvocationID.x;
  // Uniform loop (push constants only): every invocation reaches every barrier.
  for (uint idx = pc.param; idx <= pc.n; idx *= 2) {
    const uint positions = pc.n / idx;  // p = k * idx <= n without overflow
    for (uint k = tid + 1; k <= positions; k += WG) {
      const uint node = pc.aux_offset + k * idx - 1;
      tree[node] = OP(tree[node - idx / 2], tree[node]);
    }
    buffer_barrier();
    if (idx > pc.n / 2) break;  // the next level is past n; idx * 2 could overflow
  }
}
