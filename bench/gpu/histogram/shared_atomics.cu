// How fast can a histogram add into shared memory, with no samples to load? Each thread of a
// resident wave adds 1 into a block's copies of 256 bins (u32, 32 copies 257 counters apart, a
// copy a lane, as fast/replicated lays them out), its bins drawn as a histogram's samples would
// draw them: uniform over the 256 bins, every sample in one bin, or a lane's own bin (no two
// lanes of a warp on one bank: the floor of the layout). The adds a clock an SM are what a
// sample-per-atomic design can reach; beside the samples' read time they say which bounds it.
//
//   nvcc -std=c++17 -O3 -arch=native bench/gpu/histogram/shared_atomics.cu -o shared_atomics
//   ./shared_atomics      # one line a pattern: adds/s, adds a clock an SM at the SM clock read
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace {

#define CHECK_CUDA(call)                                                 \
  do {                                                                   \
    const cudaError_t status_ = (call);                                  \
    if (status_ != cudaSuccess) {                                        \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
                   cudaGetErrorString(status_));                         \
      std::exit(1);                                                      \
    }                                                                    \
  } while (0)

constexpr int kBlock = 1024;
constexpr int kCopies = 32;
constexpr int kStride = 257;  // bins rounded up to 32, plus one
constexpr int kAdds = 4096;   // a thread's adds

enum Pattern { uniform, one_bin, own_bank };

// A thread's next bin: a xorshift's low byte (uniform), 7 (one bin), or its lane (own bank).
__device__ __forceinline__ unsigned next_bin(unsigned& state, Pattern p, unsigned lane) {
  state ^= state << 13;
  state ^= state >> 17;
  state ^= state << 5;
  return p == uniform ? (state & 255u) : p == one_bin ? 7u : lane;
}

__global__ void __launch_bounds__(kBlock, 1) add_shared(Pattern p, unsigned* out) {
  __shared__ unsigned counters[kCopies * kStride];
  for (int k = threadIdx.x; k < kCopies * kStride; k += kBlock) counters[k] = 0;
  __syncthreads();
  const unsigned lane = threadIdx.x & 31;
  unsigned* mine = counters + lane * kStride;
  unsigned state = 0x9E3779B9u ^ (blockIdx.x * kBlock + threadIdx.x) * 2654435761u;
  for (int i = 0; i < kAdds; ++i) atomicAdd(&mine[next_bin(state, p, lane)], 1u);
  __syncthreads();
  // Keeps the adds: one word of the block's counters out.
  if (threadIdx.x == 0) out[blockIdx.x] = counters[7] + counters[kStride + 200];
}

}  // namespace

int main() {
  int device = 0, sms = 0, clock_khz = 0, per_sm = 0;
  CHECK_CUDA(cudaGetDevice(&device));
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CHECK_CUDA(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, add_shared, kBlock, 0));
  const int grid = sms * per_sm;
  unsigned* out = nullptr;
  CHECK_CUDA(cudaMalloc(&out, grid * sizeof(unsigned)));
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  const char* names[] = {"uniform over 256 bins", "one bin", "a lane's own bank"};
  std::printf("%d SMs, %d blocks of %d an SM, max SM clock %d MHz, %d adds a thread\n", sms, per_sm,
              kBlock, clock_khz / 1000, kAdds);
  for (Pattern p : {uniform, one_bin, own_bank}) {
    float best = 1e30f;
    for (int rep = 0; rep < 20; ++rep) {  // the first reps raise the clock; the best one counts
      CHECK_CUDA(cudaEventRecord(start));
      add_shared<<<grid, kBlock>>>(p, out);
      CHECK_CUDA(cudaEventRecord(stop));
      CHECK_CUDA(cudaEventSynchronize(stop));
      float ms = 0;
      CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
      if (ms < best) best = ms;
    }
    const double adds = double(grid) * kBlock * kAdds;
    const double per_clock_sm = adds / (best * 1e-3) / (clock_khz * 1e3) / sms;
    std::printf("%-22s %8.3f ms  %7.1f G adds/s  %5.2f adds a clock an SM (at the max clock)\n",
                names[p], best, adds / (best * 1e6), per_clock_sm);
  }
  CHECK_CUDA(cudaFree(out));
  return 0;
}
