// Seed 002's warp-shuffle reduce (warpReduceSum -> blockReduceSum -> deviceReduceKernel),
// compiled at run time by NVRTC. Built-in CUDA version of the same scheme: warp/shuffle-down.
// xreduce: primitive=reduce dtypes=i32 ops=sum block=512 grid=1024 entry=deviceReduceKernel
//
// The seed launches min(ceil(n / 512), 1024) blocks of 512 threads, each looping over the input
// with a grid stride: grid=1024 declares that cap. Then it runs <<<1, 1024>>> over the partials;
// here the same kernel runs again over them (2 blocks, then 1), as the ABI's recursion does.
//
// Where this file differs from the seed: the seed passes `warpSize - 1` (0x1f, lanes 0-4) as the
// mask of __shfl_down_sync while all 32 lanes call it; the mask must name every calling lane, so
// it is 0xffffffff here. The seed's int n is unsigned int n (the ABI's), and its kernel is
// extern "C" so a .cubin built by nvcc from this file has the same entry name.
__inline__ __device__ int warpReduceSum(int val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val += __shfl_down_sync(0xffffffffu, val, offset);
  return val;
}

__inline__ __device__ int blockReduceSum(int val) {
  static __shared__ int shared[32];
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;
  val = warpReduceSum(val);
  // write reduced value to shared memory
  if (lane == 0) shared[wid] = val;
  __syncthreads();
  // ensure we only grab a value from shared memory if that warp existed
  val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : int(0);
  if (wid == 0) val = warpReduceSum(val);
  return val;
}

extern "C" __global__ void deviceReduceKernel(int* in, int* out, unsigned int n) {
  int sum = 0;
  // reduce multiple elements per thread
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    sum += in[i];
  sum = blockReduceSum(sum);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}
