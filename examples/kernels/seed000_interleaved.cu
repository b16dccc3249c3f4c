// Seed 000's reduceInterleaved (in place in global memory, stride halving from blockDim.x / 2),
// compiled at run time by NVRTC. Built-in CUDA version of the same kernel: global/interleaved.
// xreduce: primitive=reduce dtypes=i32 ops=sum block=512 entry=reduceInterleaved writes-input
//
// Where this file differs from the seed: the seed returns early `if (idx >= n) return;` before
// the loop's __syncthreads(), a barrier the threads past n of the last block never reach (on
// Volta and later that is undefined behaviour). xreduce pads the input with the identity up to
// whole blocks (docs/kernels.md, "Padding"), so the test is not needed and is left out.
extern "C" __global__ void reduceInterleaved(int* g_idata, int* g_odata, unsigned int n) {
  // set thread ID
  unsigned int tid = threadIdx.x;
  // convert global data pointer to the local pointer of this block
  int* idata = g_idata + blockIdx.x * blockDim.x;
  // in-place reduction in global memory
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      idata[tid] += idata[tid + stride];
    }
    __syncthreads();
  }
  // write result for this block to global mem
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
