// Can a 256-bin histogram of bytes run at the samples' read speed? fast/replicated adds each
// sample into a block's 32 copies of the bins (a copy a lane, 257 counters apart), and at uniform
// samples its lanes' adds collide in shared memory's banks (shared_atomics.cu: 8.9 adds a clock
// an SM uniform, against 30 where no two lanes of a warp share a bank). Here every lane owns its
// bins in its own bank: 16-bit counters, two bins a word, word (bin / 2) * 32 + lane of its warp's
// 16 KiB, so a warp's 32 adds always fall in 32 banks. A lane counts at most 65535 samples (the
// grid grows past that), so its 16-bit halves never carry. Beside it, in one run over the same
// 2^28 bytes: fast/replicated's layout, the lane-private layout by plain read-modify-write
// instead of atomics, a read probe (every byte loaded, nothing counted) and
// cub::DeviceHistogram::HistogramEven at 256 bins; every histogram's counts checked against
// CUB's.
//
//   nvcc -std=c++17 -O3 -arch=native bench/gpu/histogram/lane_private.cu -o lane_private
//   ./lane_private [log2 n]   # one line a kernel: best ms of 20, GB/s, x CUB; the SM clock
#include <cuda_runtime.h>
#include <cub/device/device_histogram.cuh>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

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

constexpr int kBins = 256;
constexpr int kUnroll = 4;                  // 16-byte loads in flight a thread
constexpr int kLaneWords = kBins / 2 * 32;  // a warp's lane-private words
constexpr unsigned kLaneMost = 65535;       // samples a lane may count into 16-bit halves

// Every byte of the 16 bytes `v`, handed to `add`.
template <class Add>
__device__ __forceinline__ void for_bytes(uint4 v, Add add) {
  const unsigned w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
  for (int k = 0; k < 16; ++k) add((w[k / 4] >> (8 * (k % 4))) & 0xffu);
}

// The grid-stride loop over the 16-byte vectors, kUnroll loads in flight, then the tail bytes.
template <class Add>
__device__ __forceinline__ void for_samples(const std::uint8_t* in, std::size_t n, Add add) {
  const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t first = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t vectors = n / 16;
  const uint4* v = reinterpret_cast<const uint4*>(in);
  for (std::size_t i = first; i < vectors; i += threads * kUnroll) {
    uint4 p[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      p[u] = i + u * threads < vectors ? __ldg(&v[i + u * threads]) : make_uint4(0, 0, 0, 0);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      if (i + u * threads < vectors) for_bytes(p[u], add);
  }
  for (std::size_t i = vectors * 16 + first; i < n; i += threads) add(in[i]);
}

// fast/replicated's layout: 32 copies of the bins 257 counters apart, lane l into copy l.
__global__ void __launch_bounds__(1024, 1)
    replicated(const std::uint8_t* in, std::size_t n, unsigned* out) {
  constexpr int kStride = kBins + 1;
  __shared__ unsigned copies[32 * kStride];
  for (int k = threadIdx.x; k < 32 * kStride; k += blockDim.x) copies[k] = 0;
  __syncthreads();
  unsigned* mine = copies + (threadIdx.x & 31) * kStride;
  for_samples(in, n, [&](unsigned b) { atomicAdd(&mine[b], 1u); });
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
    unsigned sum = 0;
    for (int c = 0; c < 32; ++c) sum += copies[c * kStride + b];
    if (sum) atomicAdd(&out[b], sum);
  }
}

// The lane-private layout: lane l of warp w adds 1 << 16 * (b & 1) into word
// w * kLaneWords + (b / 2) * 32 + l, by atomic (Atomic) or by plain read-modify-write.
template <bool Atomic>
__global__ void lane_private(const std::uint8_t* in, std::size_t n, unsigned* out) {
  extern __shared__ unsigned words[];
  const int warps = blockDim.x / 32;
  for (int k = threadIdx.x; k < warps * kLaneWords; k += blockDim.x) words[k] = 0;
  __syncthreads();
  unsigned* mine = words + (threadIdx.x / 32) * kLaneWords + (threadIdx.x & 31);
  for_samples(in, n, [&](unsigned b) {
    const unsigned one = 1u << (16 * (b & 1));
    if constexpr (Atomic)
      atomicAdd(&mine[(b / 2) * 32], one);
    else
      mine[(b / 2) * 32] += one;
  });
  __syncthreads();
  // Word k (bins 2 (k / 32) and 2 (k / 32) + 1 of lane k % 32) summed over the warps by thread
  // k, then over the lanes by a warp's reduction: the warp holding k / 32's 32 words adds them.
  for (int k = threadIdx.x; k < kLaneWords; k += blockDim.x) {
    unsigned even = 0, odd = 0;
    for (int w = 0; w < warps; ++w) {
      const unsigned word = words[w * kLaneWords + k];
      even += word & 0xffffu;
      odd += word >> 16;
    }
    even = __reduce_add_sync(0xffffffffu, even);
    odd = __reduce_add_sync(0xffffffffu, odd);
    if ((k & 31) == 0) {
      if (even) atomicAdd(&out[2 * (k / 32)], even);
      if (odd) atomicAdd(&out[2 * (k / 32) + 1], odd);
    }
  }
}

// The lane-banked layout: `Regions` u32 copies of the bins a block, bin b of lane l at word
// b * 32 + l of copy w % Regions (w the warp), by atomic. Lane l's words all lie in bank l, so
// one warp's 32 adds never share a bank; the warps of a copy share its words through the
// atomics, as different instructions.
template <int Regions>
__global__ void __launch_bounds__(1024)
    lane_banked(const std::uint8_t* in, std::size_t n, unsigned* out) {
  constexpr int kWords = kBins * 32;
  extern __shared__ unsigned words[];  // Regions * kWords
  for (int k = threadIdx.x; k < Regions * kWords; k += blockDim.x) words[k] = 0;
  __syncthreads();
  unsigned* mine = words + (threadIdx.x / 32 % Regions) * kWords + (threadIdx.x & 31);
  for_samples(in, n, [&](unsigned b) { atomicAdd(&mine[b * 32], 1u); });
  __syncthreads();
  // Word k (bin k / 32, lane k % 32) summed over the copies by thread k, then over the lanes by
  // the warp that holds bin k / 32's 32 words.
  for (int k = threadIdx.x; k < kWords; k += blockDim.x) {
    unsigned sum = 0;
    for (int r = 0; r < Regions; ++r) sum += words[r * kWords + k];
    sum = __reduce_add_sync(0xffffffffu, sum);
    if ((k & 31) == 0 && sum) atomicAdd(&out[k / 32], sum);
  }
}

// Every byte loaded and folded into one word: the read's own time.
__global__ void read_probe(const std::uint8_t* in, std::size_t n, unsigned* out) {
  unsigned acc = 0;
  for_samples(in, n, [&](unsigned b) { acc += b; });
  if (acc == 0x12345678u) out[0] = acc;  // never true for the data below; keeps the loads
}

struct Timer {
  cudaEvent_t start, stop;
  Timer() {
    CHECK_CUDA(cudaEventCreate(&start));
    CHECK_CUDA(cudaEventCreate(&stop));
  }
  // The best of 20 runs of `launch` (the first ones raise the clock).
  template <class Launch>
  float best(Launch launch) {
    float best_ms = 1e30f;
    for (int rep = 0; rep < 20; ++rep) {
      CHECK_CUDA(cudaEventRecord(start));
      launch();
      CHECK_CUDA(cudaEventRecord(stop));
      CHECK_CUDA(cudaEventSynchronize(stop));
      float ms = 0;
      CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
      best_ms = ms < best_ms ? ms : best_ms;
    }
    return best_ms;
  }
};

}  // namespace

int main(int argc, char** argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 28;
  const std::size_t n = (std::size_t{1} << log2n) + 5;  // a tail past the vectors
  int device = 0, sms = 0, clock_khz = 0;
  CHECK_CUDA(cudaGetDevice(&device));
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CHECK_CUDA(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
  std::vector<std::uint8_t> host(n);
  std::uint32_t state = 0x9E3779B9u;
  for (auto& b : host) {  // uniform bytes (xorshift)
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    b = static_cast<std::uint8_t>(state >> 24);
  }
  std::uint8_t* in = nullptr;
  unsigned *counts = nullptr, *cub_counts = nullptr;
  CHECK_CUDA(cudaMalloc(&in, n));
  CHECK_CUDA(cudaMalloc(&counts, kBins * 4));
  CHECK_CUDA(cudaMalloc(&cub_counts, kBins * 4));
  CHECK_CUDA(cudaMemcpy(in, host.data(), n, cudaMemcpyHostToDevice));
  Timer timer;
  std::printf("%zu u8 samples, %d bins, %d SMs, max SM clock %d MHz\n", n, kBins, sms,
              clock_khz / 1000);

  // CUB at its best for bytes: int levels and an int count (its fastest offset below 2^31).
  std::size_t temp_bytes = 0;
  CHECK_CUDA(cub::DeviceHistogram::HistogramEven(nullptr, temp_bytes, in, cub_counts, kBins + 1, 0,
                                                 kBins, static_cast<int>(n)));
  void* temp = nullptr;
  CHECK_CUDA(cudaMalloc(&temp, temp_bytes ? temp_bytes : 1));
  const float cub_ms = timer.best([&] {
    CHECK_CUDA(cub::DeviceHistogram::HistogramEven(temp, temp_bytes, in, cub_counts, kBins + 1, 0,
                                                   kBins, static_cast<int>(n)));
  });
  std::vector<unsigned> expected(kBins), got(kBins);
  CHECK_CUDA(cudaMemcpy(expected.data(), cub_counts, kBins * 4, cudaMemcpyDeviceToHost));
  const auto line = [&](const char* name, float ms, bool counts_checked) {
    bool same = true;
    if (counts_checked) {
      CHECK_CUDA(cudaMemcpy(got.data(), counts, kBins * 4, cudaMemcpyDeviceToHost));
      for (int b = 0; b < kBins; ++b) same &= got[b] == expected[b];
    }
    std::printf("%-40s %8.4f ms %8.1f GB/s %6.2fx CUB%s\n", name, ms, n / (ms * 1e6), cub_ms / ms,
                counts_checked ? (same ? "  counts = CUB's" : "  COUNTS DIFFER") : "");
  };
  line("cub::DeviceHistogram::HistogramEven", cub_ms, false);

  int per_sm = 0;
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_probe, 1024, 0));
  const float probe_ms = timer.best([&] { read_probe<<<sms * per_sm, 1024>>>(in, n, counts); });
  line("read probe (every byte loaded)", probe_ms, false);

  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, replicated, 1024, 0));
  const float rep_ms = timer.best([&] {
    CHECK_CUDA(cudaMemsetAsync(counts, 0, kBins * 4));
    replicated<<<sms * per_sm, 1024>>>(in, n, counts);
  });
  line("replicated: 32 copies, 1024 threads", rep_ms, true);

  // Lane-private blocks of `warps` warps, as many an SM as the shared memory holds, the grid
  // grown so that no lane counts past kLaneMost samples.
  const auto run_lane = [&](auto kernel, int warps, const char* name) {
    const int threads = warps * 32;
    const int shared = warps * kLaneWords * 4;
    CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared));
    std::size_t grid = std::size_t(sms) * per_sm;
    const std::size_t most = std::size_t(kLaneMost) * threads;
    if (grid * most < n) grid = (n + most - 1) / most;
    const float ms = timer.best([&] {
      CHECK_CUDA(cudaMemsetAsync(counts, 0, kBins * 4));
      kernel<<<static_cast<unsigned>(grid), threads, shared>>>(in, n, counts);
    });
    char label[96];
    std::snprintf(label, sizeof label, "%s, %d warps x %d an SM", name, warps, per_sm);
    line(label, ms, true);
  };
  const auto run_banked = [&](auto kernel, int regions, const char* name) {
    const int shared = regions * kBins * 32 * 4;
    CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 1024, shared));
    const float ms = timer.best([&] {
      CHECK_CUDA(cudaMemsetAsync(counts, 0, kBins * 4));
      kernel<<<sms * per_sm, 1024, shared>>>(in, n, counts);
    });
    char label[96];
    std::snprintf(label, sizeof label, "%s, 1024 threads x %d an SM", name, per_sm);
    line(label, ms, true);
  };
  run_banked(lane_banked<1>, 1, "lane-banked, 1 copy (32 KiB)");
  run_banked(lane_banked<2>, 2, "lane-banked, 2 copies (64 KiB)");
  run_banked(lane_banked<4>, 4, "lane-banked, 4 copies (128 KiB)");
  for (int warps : {14, 7, 4, 3}) run_lane(lane_private<true>, warps, "lane-private atomics");
  for (int warps : {14, 7}) run_lane(lane_private<false>, warps, "lane-private plain adds");
  CHECK_CUDA(cudaGetLastError());
  return 0;
}
