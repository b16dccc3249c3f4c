// Seed 003, Reduction #1: interleaved addressing with `%` (Harris step 1), as the seed writes it,
// run through libshaderc's HLSL front end. The built-in GLSL mirror is smem/interleaved-divergent
// (256 invocations); sequential.comp is a GLSL twin of step #3 at the seed's 64.
// xreduce: primitive=reduce dtypes=f32 ops=sum entry=ParallelReduction
//
// Where this file differs from the seed:
//  - line 20 of the seed adds `sharedMem[index + s]`, but step #1 declares no `index` (it appears
//    in step #2): it is `GI` here, as the seed's own explanation reads;
//  - `#pragma kernel ParallelReduction` is Unity's and is dropped: the entry point is declared
//    above (entry=) instead.
// The seed reads Source[DTid.x] with no bound check: xreduce pads the input with the op's
// identity up to whole groups of 64 (docs/kernels.md, "Padding").
#define THREADTOTAL 64
groupshared float sharedMem[THREADTOTAL];
StructuredBuffer<float> Source;
RWStructuredBuffer<float> Result;

[numthreads(THREADTOTAL, 1, 1)]
void ParallelReduction(uint3 Gid : SV_GroupID, uint3 DTid : SV_DispatchThreadID,
                       uint GI : SV_GroupIndex) {
  sharedMem[GI] = Source[DTid.x];  // store in shared memory
  GroupMemoryBarrierWithGroupSync();
  for (uint s = 1; s < THREADTOTAL; s *= 2) {
    if (GI % (2 * s) == 0)
      sharedMem[GI] += sharedMem[GI + s];
    GroupMemoryBarrierWithGroupSync();
  }
  if (GI == 0) Result[Gid.x] = sharedMem[0];  // one partial per thread group
}
