#version 450
// fast/reduce-then-scan, pass 2 (CUDA's scan_rts_partials): one workgroup turns the PC_N
// partials at pc.aux (from pc.aux_offset) into their exclusive prefixes, in place. Each
// invocation folds a run of consecutive partials, in the order of its rank (subgroup, then lane:
// no assumption on how local ids map to subgroups); the run totals are scanned across the
// workgroup; each run is rewritten from its prefix.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "scan_common.glsl"

shared T subgroup_totals[WG];

void main() {
  const uint rank = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  const uint n = uint(PC_N);  // one partial per workgroup of pass 1: a 32-bit count
  const uint per = (n + WG - 1) / WG;
  const uint begin = min(rank * per, n);
  const uint end = min(begin + per, n);
  T run = T(IDENTITY);
  for (uint i = begin; i < end; ++i) run = OP(run, AUX(pc.aux_offset + i));
  const T lanes_before = SUBGROUP_EXCLUSIVE_OP(run);
  const T lanes_incl = SUBGROUP_INCLUSIVE_OP(run);
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1) subgroup_totals[gl_SubgroupID] = lanes_incl;
  barrier();
  T prefix = T(IDENTITY);
  for (uint w = 0; w < gl_SubgroupID; ++w) prefix = OP(prefix, subgroup_totals[w]);
  prefix = OP(prefix, lanes_before);
  for (uint i = begin; i < end; ++i) {
    const T x = AUX(pc.aux_offset + i);
    AUX(pc.aux_offset + i) = prefix;
    prefix = OP(prefix, x);
  }
}
