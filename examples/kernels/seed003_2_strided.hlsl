// Seed 003, Reduction #2: interleaved addressing with a strided index (Harris step 2), as the seed
// writes it. Built-in GLSL mirror: smem/interleaved-strided.
// xreduce: primitive=reduce dtypes=f32 ops=sum entry=ParallelReduction
//
// The seed gives only the loop of this step; the rest is step #1's (see seed003_1_interleaved.hlsl).
// The seed's `unsigned int s` is `uint` here: glslang's HLSL front end (libshaderc) rejects the
// two-word spelling as a reserved word, which DXC accepts. `int index = 2*s*GI` mixes int and
// uint as the seed does.
#define THREADTOTAL 64
groupshared float sharedMem[THREADTOTAL];
StructuredBuffer<float> Source;
RWStructuredBuffer<float> Result;

[numthreads(THREADTOTAL, 1, 1)]
void ParallelReduction(uint3 Gid : SV_GroupID, uint3 DTid : SV_DispatchThreadID,
                       uint GI : SV_GroupIndex) {
  sharedMem[GI] = Source[DTid.x];
  GroupMemoryBarrierWithGroupSync();
  for (uint s = 1; s < THREADTOTAL; s *= 2) {
    int index = 2 * s * GI;
    if (index < THREADTOTAL) {
      sharedMem[index] += sharedMem[index + s];
    }
    GroupMemoryBarrierWithGroupSync();
  }
  if (GI == 0) Result[Gid.x] = sharedMem[0];
}
