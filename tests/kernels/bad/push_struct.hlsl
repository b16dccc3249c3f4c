// examples/kernels/wave_reduce.hlsl with its push constants spelled as docs/kernels.md once spelled
// them, a struct instance marked [[vk::push_constant]]: glslang's HLSL front end takes `sizes`
// for a plain global variable and puts it into the $Globals uniform buffer. Refused before it runs
// (exit 2), the message naming $Globals, what it holds and the two spellings that work.
// xreduce: primitive=reduce dtypes=i32 ops=sum block=256 grid=1024
StructuredBuffer<XR_T> xs;
RWStructuredBuffer<XR_ACC> partials;

struct Sizes {
  uint n;
  uint tiles;
};
[[vk::push_constant]] Sizes sizes;

groupshared XR_ACC folded[XR_BLOCK];

[numthreads(XR_BLOCK, 1, 1)]
void main(uint tid : SV_GroupIndex, uint3 group : SV_GroupID) {
  XR_ACC acc = XR_IDENTITY;
  for (uint i = group.x * XR_BLOCK + tid; i < sizes.n; i += sizes.tiles * XR_BLOCK)
    acc = XR_OP(acc, XR_TO_ACC(xs[i]));
  folded[tid] = acc;
  GroupMemoryBarrierWithGroupSync();
  for (uint s = XR_BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) folded[tid] = XR_OP(folded[tid], folded[tid + s]);
    GroupMemoryBarrierWithGroupSync();
  }
  if (tid == 0) partials[group.x] = folded[0];
}
