// Seed 001's Fenwick-tree (BIT) prefix sum, its second scheme: gen_bit_in_one_block,
// gen_bit_between_blocks (one block), calc_sum_using_bit, through the scan ABI (docs/kernels.md):
// every pass takes (XR_T* in, XR_T* out, unsigned char* scratch, unsigned int n). Built-in CUDA
// version: bit/between-blocks.
// xreduce: primitive=scan dtypes=i32,u32,f32,i64,u64,f64 ops=sum,min,max kinds=inclusive block=256
// xreduce: pass=gen_bit_in_one_block:tiles pass=gen_bit_between_blocks:one
// xreduce: pass=calc_sum_using_bit:tiles writes-input
//
// Where this file differs from the seed: its int becomes XR_T and `+=` XR_OP, so one source
// serves every dtype and op it declares; gen_bit_in_one_block's `if (tid < n)` around a loop with
// __syncthreads() is left out (the padding makes it unnecessary; threads past n would skip the
// barrier); gen_bit_between_blocks takes its first level (the seed's idx = 512, two blocks) from
// XR_BLOCK, and counts k = pos / idx so positions near 2^32 cannot overflow.
extern "C" __global__ void gen_bit_in_one_block(XR_T* input, XR_T*, unsigned char*,
                                                unsigned int n) {
  unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned int idx = 2; idx <= blockDim.x; idx <<= 1) {
    if (((tid + 1) & (idx - 1)) == 0) input[tid] = XR_OP(input[tid], input[tid - (idx >> 1)]);
    __syncthreads();
  }
}

extern "C" __global__ void gen_bit_between_blocks(XR_T* input, XR_T*, unsigned char*,
                                                  unsigned int n) {
  unsigned int tid = threadIdx.x;
  for (unsigned long long idx = 2ull * XR_BLOCK; idx <= n; idx <<= 1) {
    for (unsigned long long k = tid + 1; k <= n / idx; k += blockDim.x) {
      unsigned long long pos = k * idx;
      input[pos - 1] = XR_OP(input[pos - 1], input[pos - 1 - (idx >> 1)]);
    }
    __syncthreads();
  }
}

extern "C" __global__ void calc_sum_using_bit(XR_T* input, XR_T* output, unsigned char*,
                                              unsigned int n) {
  unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n) return;
  XR_ACC acc = XR_IDENTITY;
  for (unsigned int idx = tid + 1; idx > 0; idx -= (idx & (~idx + 1u)))
    acc = XR_OP(acc, XR_TO_ACC(input[idx - 1]));
  output[tid] = XR_FROM_ACC(acc);
}
