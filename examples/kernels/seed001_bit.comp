#version 450
// Seed 001's Fenwick-tree (BIT) prefix sum in GLSL, its second scheme ("gen_bit_between_blocks"):
// the BIT built in place inside each block, the levels above built by one workgroup, then the
// O(log n) query per element. One file, three passes: XR_PASS selects the body.
// xreduce: primitive=scan dtypes=i32,u32,f32,i64,u64,f64 ops=sum,min,max kinds=inclusive
// xreduce: pass=main:tiles pass=main:one pass=main:tiles writes-input
layout(local_size_x = 256) in;
// The seed builds the BIT in its input buffer: the kernel writes its input (writes-input).
layout(std430, binding = 0) coherent buffer Bit { XR_T bit[]; };
layout(std430, binding = 1) writeonly buffer Prefix { XR_T prefix[]; };
layout(push_constant) uniform Params { uint n; uint tiles; } pc;

// Buffer writes of one invocation seen by the others of its workgroup: CUDA's __syncthreads()
// orders global memory too, GLSL's barrier() only shared memory.
void sync_block() {
  memoryBarrierBuffer();
  barrier();
}

#if XR_PASS == 0
// gen_bit_in_one_block. The seed tests `tid < n` around the loop and its __syncthreads(), a
// barrier the threads past n of the last block never reach; the padding (the identity up to
// whole tiles) makes the test unnecessary.
void main() {
  const uint tid = gl_GlobalInvocationID.x;
  for (uint idx = 2; idx <= XR_BLOCK; idx <<= 1) {
    if (((tid + 1) & (idx - 1)) == 0) bit[tid] = XR_OP(bit[tid], bit[tid - (idx >> 1)]);
    sync_block();
  }
}
#elif XR_PASS == 1
// gen_bit_between_blocks, one workgroup. The seed's positions (tid + 1) * idx are products that
// overflow 32 bits near 2^32; counting k = pos / idx keeps them in range.
void main() {
  const uint tid = gl_LocalInvocationID.x;
  for (uint idx = 2 * XR_BLOCK; idx != 0 && idx <= pc.n; idx <<= 1) {
    for (uint k = tid + 1; k <= pc.n / idx; k += XR_BLOCK) {
      const uint pos = k * idx;
      bit[pos - 1] = XR_OP(bit[pos - 1], bit[pos - 1 - (idx >> 1)]);
    }
    sync_block();
  }
}
#else
// calc_sum_using_bit: the prefix of element tid from the O(log n) ranges of the BIT.
void main() {
  const uint tid = gl_GlobalInvocationID.x;
  if (tid >= pc.n) return;
  XR_ACC acc = XR_IDENTITY;
  for (uint idx = tid + 1; idx > 0; idx -= idx & (~idx + 1u)) acc = XR_OP(acc, XR_TO_ACC(bit[idx - 1]));
  prefix[tid] = XR_FROM_ACC(acc);
}
#endif
