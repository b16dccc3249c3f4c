// Seed 003, Reduction #3: sequential addressing (Harris step 3), as the seed writes it. Built-in
// GLSL mirror: smem/sequential (256 invocations); its twin at 64 invocations: sequential.comp.
// xreduce: primitive=reduce dtypes=f32 ops=sum entry=ParallelReduction
//
// The seed spells the barrier `GroupMemoryBarrierwithGroupSync` (lower-case w) in this step:
// HLSL has no such intrinsic and the seed's code does not compile; it is spelled correctly here.
#define THREADTOTAL 64
groupshared float sharedMem[THREADTOTAL];
StructuredBuffer<float> Source;
RWStructuredBuffer<float> Result;

[numthreads(THREADTOTAL, 1, 1)]
void ParallelReduction(uint3 Gid : SV_GroupID, uint3 DTid : SV_DispatchThreadID,
                       uint GI : SV_GroupIndex) {
  sharedMem[GI] = Source[DTid.x];
  GroupMemoryBarrierWithGroupSync();
  for (int s = THREADTOTAL / 2; s > 0; s >>= 1) {
    if (GI < s) {
      sharedMem[GI] += sharedMem[GI + s];
    }
    GroupMemoryBarrierWithGroupSync();
  }
  if (GI == 0) Result[Gid.x] = sharedMem[0];
}
