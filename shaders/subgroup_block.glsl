// Workgroup reduction from a subgroup reduction: each subgroup reduces its values with
// subgroup_reduce() (defined by the including shader), subgroup 0 then folds the per-subgroup
// results in a fixed order and reduces them once more. Nothing assumes a subgroup size: with
// more subgroups than lanes (256 invocations in subgroups of 8 on lavapipe) each lane folds
// several of them first.
// Requires: GL_KHR_shader_subgroup_basic, full subgroups (the host asks for them).
// Result: valid in the invocation with gl_SubgroupID == 0 && gl_SubgroupInvocationID == 0.

shared T sgroup[WG];  // one slot per subgroup; WG slots cover even subgroups of one invocation

T workgroup_reduce(T v) {
  v = subgroup_reduce(v);
  if (gl_SubgroupInvocationID == 0) sgroup[gl_SubgroupID] = v;
  barrier();
  T w = T(IDENTITY);
  if (gl_SubgroupID == 0) {
    for (uint i = gl_SubgroupInvocationID; i < gl_NumSubgroups; i += gl_SubgroupSize)
      w = OP(w, sgroup[i]);
    w = subgroup_reduce(w);
  }
  return w;
}

bool is_workgroup_leader() { return gl_SubgroupID == 0 && gl_SubgroupInvocationID == 0; }
