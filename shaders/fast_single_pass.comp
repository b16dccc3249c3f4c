#version 450
// fast/single-pass: one dispatch. Every workgroup reduces its grid-stride share (as
// fast/vectorized), writes its partial and takes a ticket; the workgroup that draws the last
// ticket folds all partials in workgroup order (deterministic) and writes the result.
//
// Memory model: a partial is written through a Coherent buffer (device-scope available) and
// released by the device-scope acquire-release ticket RMW; the last workgroup's RMW reads the
// end of that release sequence, so it synchronises with every other workgroup's release. Its
// control barrier with buffer semantics extends that happens-before to every invocation of the
// last workgroup, whose Coherent loads see the partials. The last workgroup resets the ticket
// for the next dispatch.
// The module keeps the GLSL450 memory model with explicit scopes and semantics
// (GL_KHR_memory_scope_semantics): Vulkan defines Coherent as device-scope availability and
// visibility, so this is race-free under the Vulkan memory model. `#pragma
// use_vulkan_memory_model` would say the same, but Mesa 22.3's lavapipe miscompiles VulkanMemoryModel
// modules that use subgroup operations (every result wrong, seen on subgroup/arithmetic too).
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_control_flow_attributes : require
#include "common.glsl"

// The partials and the ticket share the pass's scratch at pc.aux (the ticket in its first 16
// bytes, the partials from byte 16, both Coherent as the memory model above needs); the result
// is one accumulator at element pc.out_offset of pc.dst (the caller's output, xreduce/vulkan).
#ifdef XR_ADDRESS
layout(buffer_reference, std430, buffer_reference_align = T_BYTES) coherent buffer Partial { T v; };
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer Ticket { uint v; };
#define PARTIAL(i) Partial(pc.aux + 16 + IDX(i) * T_BYTES).v
#define TICKET Ticket(pc.aux).v
#else
layout(set = 0, binding = 2) coherent buffer Scratch {
  uint ticket;
  uint ticket_pad[3];  // the partials start at byte 16, as by address
  T partials[];
};
#define PARTIAL(i) partials[i]
#define TICKET ticket
#endif

T subgroup_reduce(T v) { return SUBGROUP_OP(v); }

#include "subgroup_block.glsl"
#include "vector_fold.glsl"

shared uint s_is_last;

void main() {
  const uint threads = pc.groups * WG;
  const uint tid = gl_LocalInvocationID.x;
  const uint gid = gl_WorkGroupID.x * WG + tid;
  const T v = workgroup_reduce(vector_fold(gid, threads));
  if (pc.groups == 1u) {  // one workgroup covers n: no partials, no ticket (as in CUDA's)
    if (is_workgroup_leader()) dst_set(pc.out_offset, v);
    return;
  }
  if (is_workgroup_leader()) {
    PARTIAL(gl_WorkGroupID.x) = v;
    const uint drawn = atomicAdd(TICKET, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                                 gl_SemanticsAcquireRelease);
    s_is_last = drawn == pc.groups - 1 ? 1u : 0u;
  }
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup,
                 gl_StorageSemanticsShared | gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
  if (s_is_last == 0u) return;  // uniform: every invocation read the same shared value

  T w = T(IDENTITY);
  for (uint i = tid; i < pc.groups; i += WG) w = OP(w, PARTIAL(i));
  w = workgroup_reduce(w);
  if (is_workgroup_leader()) {
    dst_set(pc.out_offset, w);
    atomicStore(TICKET, 0u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                gl_SemanticsRelaxed);
  }
}
