// What holds the library's lane-banked kernel behind the layout's own speed? lane_private.cu's
// lane-banked kernel (4 copies of 256 bins, 32 counters a bin, one block of 1024 an SM) counts
// 2^28 bytes in 0.082 ms; the library's histogram_lane_banked, in the same layout, in 0.134.
// Here the one kernel takes, one at a time, what the library's does differently: the bin rule's
// range check (d = s - lower against width - 1, both kernel arguments), 2 vectors in flight
// instead of 4, and the 16 bytes of a vector held as a Pack of 16 separate bytes instead of
// shifted out of its four words; then the library's kernel itself (its header, built in); every
// variant's counts checked against CUB's.
//
//   nvcc -std=c++20 -O3 -arch=native --expt-relaxed-constexpr -I cuda_backend/library \
//     -I core/include bench/gpu/histogram/lane_banked_code.cu -o lane_banked_code
//   ./lane_banked_code [log2 n]   # one line a variant: best ms of 20, x CUB, registers
#include <cuda_runtime.h>
#include <cub/device/device_histogram.cuh>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "histogram_dispatch.hpp"
#include "kernels/histogram_fast.cuh"

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
constexpr int kWords = kBins * 32;  // a copy's counters
constexpr int kCopies = 4;

struct Bytes {
  std::uint8_t e[16];
};

// Byte j of a vector: shifted out of its word, or taken from the Pack the vector was copied to.
template <bool kPack>
struct Vector {
  uint4 raw;
  Bytes pack;
  __device__ __forceinline__ void load(const uint4* at) {
    raw = __ldg(at);
    if constexpr (kPack) memcpy(&pack, &raw, 16);  // a register move, not memory
  }
  __device__ __forceinline__ unsigned byte(int j) const {
    if constexpr (kPack) return pack.e[j];
    const unsigned w[4] = {raw.x, raw.y, raw.z, raw.w};
    return (w[j / 4] >> (8 * (j % 4))) & 0xffu;
  }
};

// The lane-banked count of n bytes (a multiple of 16 here): kUnroll vectors in flight, the bin
// rule's range check (kCheck: lower and last as arguments) or none, the bytes by kPack.
template <int kUnroll, bool kCheck, bool kPack>
__global__ void __launch_bounds__(1024, 1)
    lane_banked(const std::uint8_t* in, std::size_t n, unsigned lower, unsigned last,
                unsigned* out) {
  extern __shared__ unsigned words[];  // kCopies * kWords
  for (int k = threadIdx.x; k < kCopies * kWords; k += blockDim.x) words[k] = 0;
  __syncthreads();
  unsigned* mine = words + (threadIdx.x / 32 % kCopies) * kWords + (threadIdx.x & 31);
  const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t first = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t vectors = n / 16;
  const uint4* v = reinterpret_cast<const uint4*>(in);
  for (std::size_t i = first; i < vectors; i += threads * kUnroll) {
    Vector<kPack> p[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      if (i + u * threads < vectors) p[u].load(&v[i + u * threads]);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      if (i + u * threads < vectors)
#pragma unroll
        for (int j = 0; j < 16; ++j) {
          const unsigned b = p[u].byte(j);
          if constexpr (kCheck) {
            const unsigned d = b - lower;
            if (d <= last) atomicAdd(&mine[d * 32], 1u);
          } else {
            atomicAdd(&mine[b * 32], 1u);
          }
        }
  }
  __syncthreads();
  for (int k = threadIdx.x; k < kWords; k += blockDim.x) {
    unsigned sum = 0;
    for (int c = 0; c < kCopies; ++c) sum += words[c * kWords + k];
    sum = __reduce_add_sync(0xffffffffu, sum);
    if ((k & 31) == 0 && sum) atomicAdd(&out[k / 32], sum);
  }
}

struct Timer {
  cudaEvent_t start, stop;
  Timer() {
    CHECK_CUDA(cudaEventCreate(&start));
    CHECK_CUDA(cudaEventCreate(&stop));
  }
  template <class Launch>
  float best(Launch launch) {  // the best of 20 (the first ones raise the clock)
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
  const std::size_t n = std::size_t{1} << log2n;
  int device = 0, sms = 0;
  CHECK_CUDA(cudaGetDevice(&device));
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
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
  std::printf("%zu u8 samples, %d bins, %d SMs; CUB %.4f ms\n", n, kBins, sms, cub_ms);
  const auto run = [&](auto kernel, const char* name) {
    const int shared = kCopies * kWords * 4;
    CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    cudaFuncAttributes attributes{};
    CHECK_CUDA(cudaFuncGetAttributes(&attributes, kernel));
    const float ms = timer.best([&] {
      CHECK_CUDA(cudaMemsetAsync(counts, 0, kBins * 4));
      kernel<<<sms, 1024, shared>>>(in, n, 0u, 255u, counts);
    });
    CHECK_CUDA(cudaMemcpy(got.data(), counts, kBins * 4, cudaMemcpyDeviceToHost));
    bool same = true;
    for (int b = 0; b < kBins; ++b) same &= got[b] == expected[b];
    std::printf("%-44s %8.4f ms %6.2fx CUB %3d registers%s\n", name, ms, cub_ms / ms,
                attributes.numRegs, same ? "" : "  COUNTS DIFFER");
  };
  run(lane_banked<4, false, false>, "4 vectors, no check, shifted bytes");
  run(lane_banked<4, true, false>, "4 vectors, range check, shifted bytes");
  run(lane_banked<2, true, false>, "2 vectors, range check, shifted bytes");
  run(lane_banked<2, true, true>, "2 vectors, range check, Pack bytes");
  run(lane_banked<4, true, true>, "4 vectors, range check, Pack bytes");
  run(lane_banked<2, false, true>, "2 vectors, no check, Pack bytes");
  // The library's kernel as fast/replicated launches it at 2^27 samples and more (its plan's
  // rule for 256 bins over 0:256, u32 counts, 4 copies, a block an SM), at 2 and 4 vectors.
  namespace k = xr::cuda::kernels;
  xr::cuda::histogram::BinParams params;
  params.bins = kBins;
  params.offset = 0;
  params.width = 256;
  params.path = xr::cuda::histogram::IntegerPath::identity;
  const auto rule = k::BinRule<std::uint8_t>::of(params);
  const auto library = [&](auto kernel, const char* name) {
    const int shared = kCopies * kWords * 4;
    CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    cudaFuncAttributes attributes{};
    CHECK_CUDA(cudaFuncGetAttributes(&attributes, kernel));
    const float ms = timer.best([&] {
      CHECK_CUDA(cudaMemsetAsync(counts, 0, kBins * 4));
      kernel<<<sms, 1024, shared>>>(in, n, nullptr, rule, k::Counters{counts, false}, kBins,
                                    kCopies);
    });
    CHECK_CUDA(cudaMemcpy(got.data(), counts, kBins * 4, cudaMemcpyDeviceToHost));
    bool same = true;
    for (int b = 0; b < kBins; ++b) same &= got[b] == expected[b];
    std::printf("%-44s %8.4f ms %6.2fx CUB %3d registers%s\n", name, ms, cub_ms / ms,
                attributes.numRegs, same ? "" : "  COUNTS DIFFER");
  };
  library(k::histogram_lane_banked<std::uint8_t, 1024, 1, 2>, "library kernel, 2 vectors");
  library(k::histogram_lane_banked<std::uint8_t, 1024, 1, 4>, "library kernel, 4 vectors");
  CHECK_CUDA(cudaGetLastError());
  return 0;
}
