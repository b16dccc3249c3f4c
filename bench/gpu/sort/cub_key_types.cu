// Does cub::DeviceRadixSort::SortKeys take longer for u32 keys than for i32 keys of the same bits?
// One experiment, four sorts of 2^28 keys, each timed cold (L2 flushed), median of 15:
//   u32 random bits; the same bytes as i32; u32 with the sign bit flipped (the bits an i32 sort
//   orders by); f32 in [-2^20, 2^20) (xreduce's `full` floats).
// Build and run on the GPU machine: nvcc -O3 -arch=sm_90 -o /tmp/cub_key_types cub_key_types.cu
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                                    \
  do {                                                                              \
    cudaError_t e = (x);                                                            \
    if (e != cudaSuccess) {                                                         \
      std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e)); \
      return 1;                                                                     \
    }                                                                               \
  } while (0)

__global__ void random_bits(std::uint32_t* keys, std::size_t n, std::uint32_t flip, bool floats) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    std::uint64_t z = (i + 1) * 0x9E3779B97F4A7C15ull;  // SplitMix64
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const std::uint32_t bits = static_cast<std::uint32_t>(z >> 32);
    if (floats) {
      const float unit = static_cast<float>(bits >> 8) * (1.0f / 16777216.0f);
      const float f = (2.0f * unit - 1.0f) * 1048576.0f;
      keys[i] = __float_as_uint(f);
    } else {
      keys[i] = bits ^ flip;
    }
  }
}

template <class Key>
int time_sort(const char* what, std::uint32_t* in, std::uint32_t* out, std::size_t n, void* flush,
              std::size_t flush_bytes) {
  std::size_t temp_bytes = 0;
  const auto* keys_in = reinterpret_cast<const Key*>(in);
  auto* keys_out = reinterpret_cast<Key*>(out);
  CHECK(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, keys_in, keys_out, int(n)));
  void* temp = nullptr;
  CHECK(cudaMalloc(&temp, temp_bytes));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<float> ms;
  for (int rep = 0; rep < 16; ++rep) {
    CHECK(cudaMemsetAsync(flush, rep, flush_bytes));
    CHECK(cudaEventRecord(a));
    CHECK(cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys_in, keys_out, int(n)));
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, a, b));
    if (rep > 0) ms.push_back(t);  // the first call warms the module
  }
  std::sort(ms.begin(), ms.end());
  std::printf("%-44s median %.3f ms  min %.3f  max %.3f\n", what, ms[ms.size() / 2], ms.front(),
              ms.back());
  CHECK(cudaFree(temp));
  return 0;
}

int main() {
  const std::size_t n = std::size_t{1} << 28, flush_bytes = std::size_t{256} << 20;
  std::uint32_t *in = nullptr, *out = nullptr;
  void* flush = nullptr;
  CHECK(cudaMalloc(&in, n * 4));
  CHECK(cudaMalloc(&out, n * 4));
  CHECK(cudaMalloc(&flush, flush_bytes));
  for (int round = 0; round < 2; ++round) {
    random_bits<<<1024, 256>>>(in, n, 0, false);
    if (time_sort<std::uint32_t>("u32 random bits", in, out, n, flush, flush_bytes)) return 1;
    if (time_sort<std::int32_t>("the same bytes as i32", in, out, n, flush, flush_bytes)) return 1;
    random_bits<<<1024, 256>>>(in, n, 0x80000000u, false);
    if (time_sort<std::uint32_t>("u32, sign bit flipped (i32's sort bits)", in, out, n, flush,
                                 flush_bytes))
      return 1;
    random_bits<<<1024, 256>>>(in, n, 0, true);
    if (time_sort<float>("f32 in [-2^20, 2^20)", in, out, n, flush, flush_bytes)) return 1;
    if (time_sort<std::uint32_t>("those f32 bytes as u32", in, out, n, flush, flush_bytes))
      return 1;
  }
  return 0;
}
