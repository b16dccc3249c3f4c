#version 450
// A histogram's zero pass: the first pc.words words at binding 1 (the counts an overwriting call
// sets, or the copies of the bins in scratch) cleared by a compute shader, so that every access
// of a call is a compute shader's and the caller's compute barriers order it.
#define HISTOGRAM_NO_SAMPLES
#include "histogram_common.glsl"

void main() {
  const uint threads = gl_NumWorkGroups.x * WG;
  for (uint w = gl_GlobalInvocationID.x; w < pc.words; w += threads) counts[w] = 0u;
}
