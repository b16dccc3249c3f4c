// The HLSL spelling of shared_huge.comp: 4 MB of groupshared memory, past every device's
// maxComputeSharedMemorySize; refused before it runs (exit 2).
// xreduce: dtypes=i32 entry=main
StructuredBuffer<XR_T> xs : register(t0);
RWStructuredBuffer<XR_ACC> partials : register(u1);

groupshared int s[1000000];

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex, uint3 gid : SV_GroupID, uint3 id : SV_DispatchThreadID) {
  s[tid * 15619u] = int(xs[id.x]);
  GroupMemoryBarrierWithGroupSync();
  if (tid == 0) {
    int acc = 0;
    for (uint k = 0; k < 64u; ++k) acc += s[k * 15619u];
    partials[gid.x] = XR_ACC(acc);
  }
}
