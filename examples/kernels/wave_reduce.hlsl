// A grid-stride reduce in HLSL with wave intrinsics and push constants: each workgroup folds every
// `tiles`-th tile of the input up to `n` (the push constants: how many elements this pass reads
// and how many workgroups it runs), each wave combines its lanes with WaveActiveSum, Min or Max,
// and the first lane of every wave hands the wave's value to a groupshared tree. grid=1024 caps
// the workgroups, as seed 002 caps its blocks; xreduce runs the kernel again over the partials.
// Nothing assumes a wave size (32 on NVIDIA, 8 on lavapipe) or which invocations share a wave.
//
// Push constants as glslang's HLSL front end takes them: a ConstantBuffer (or a cbuffer) marked
// [[vk::push_constant]]. A struct instance (`[[vk::push_constant]] struct P {...} p;`) is a plain
// global variable to glslang, which puts it into the `$Globals` uniform buffer instead.
// xreduce: primitive=reduce dtypes=i32,u32,f32 ops=sum,min,max block=256 grid=1024
StructuredBuffer<XR_T> xs;              // binding 0: the input (later passes: the partials)
RWStructuredBuffer<XR_ACC> partials;    // binding 1: one value per workgroup

struct Sizes {
  uint n;      // elements this pass reads
  uint tiles;  // workgroups this pass runs
};
[[vk::push_constant]] ConstantBuffer<Sizes> sizes;

#if defined(XR_OP_SUM)
#define WAVE_OP(x) WaveActiveSum(x)
#elif defined(XR_OP_MIN)
#define WAVE_OP(x) WaveActiveMin(x)
#else
#define WAVE_OP(x) WaveActiveMax(x)
#endif

groupshared XR_ACC folded[XR_BLOCK];

[numthreads(XR_BLOCK, 1, 1)]
void main(uint tid : SV_GroupIndex, uint3 group : SV_GroupID) {
  XR_ACC acc = XR_IDENTITY;
  for (uint i = group.x * XR_BLOCK + tid; i < sizes.n; i += sizes.tiles * XR_BLOCK)
    acc = XR_OP(acc, XR_TO_ACC(xs[i]));
  const XR_ACC wave = WAVE_OP(acc);
  // One slot per invocation, the wave's value in its first lane's: right whatever the waves are.
  folded[tid] = WaveIsFirstLane() ? wave : XR_IDENTITY;
  GroupMemoryBarrierWithGroupSync();
  for (uint s = XR_BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) folded[tid] = XR_OP(folded[tid], folded[tid + s]);
    GroupMemoryBarrierWithGroupSync();
  }
  if (tid == 0) partials[group.x] = folded[0];
}
