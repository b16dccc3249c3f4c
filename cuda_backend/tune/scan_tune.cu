// Tuning sweep behind the fast/* scan policy (dispatch_scan_fast.cu): times the decoupled
// look-back for several tile shapes (threads x 16-byte vectors per thread), pauses and tile-state
// layouts against cub::DeviceScan::InclusiveSum and a device-to-device copy, cold L2, CUDA
// events, median of 20. Integer sweeps also check every look-back's output against CUB's
// (mismatching elements are printed). Not part of the tool; built on demand:
// `cmake --build <dir> --target xreduce_cuda_scan_tune`.
//
//   4-byte sums (u32, f32; packed tile states): the shapes and pauses, and the look-back
//     restricted to what SPIR-V can express (no __nanosleep: wait 0 spin 0), at Vulkan's
//     128 x 16 shape too;
//   8-byte sums (u64, f64): split states (a status word, then the value slot: two dependent L2
//     round trips per step) against halves (two words, each status + half the value: one round
//     trip), over CUB's sm90 shape (224 x 12 vectors = 224 x 24 items) and ours.
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "context.hpp"
#include "kernels/scan_fast.cuh"
#include "tune/timer.cuh"

namespace k = xr::cuda::kernels;
using xr::cuda::DeviceBuffer;
using xr::cuda::Event;
using xr::cuda::Stream;
using xr::cuda::tune::Timer;

namespace {

template <class T>
__global__ void count_mismatches(const T* a, const T* b, std::size_t n, unsigned long long* bad) {
  unsigned long long mine = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    mine += a[i] != b[i];
  if (mine) atomicAdd(bad, mine);
}

// What every look-back run of one sweep shares.
template <class T>
struct Bench {
  Timer& tm;
  const T* in;
  T* out;
  const T* ref;  // CUB's output, for integer types
  std::size_t n;
  DeviceBuffer& scratch;
  double cub_ms, copy_ms;
};

template <class T>
unsigned long long mismatches(const Bench<T>& b) {
  DeviceBuffer bad(sizeof(unsigned long long));
  XR_CUDA_CHECK(cudaMemsetAsync(bad.get(), 0, sizeof(unsigned long long), b.tm.s));
  count_mismatches<<<1024, 256, 0, b.tm.s>>>(b.out, b.ref, b.n, bad.as<unsigned long long>());
  unsigned long long host = 0;
  XR_CUDA_CHECK(cudaMemcpyAsync(&host, bad.get(), sizeof host, cudaMemcpyDeviceToHost, b.tm.s));
  XR_CUDA_CHECK(cudaStreamSynchronize(b.tm.s));
  return host;
}

template <class T, int B, int V, class States = k::TileStates<k::acc_t<T>>, bool kTicket = true>
void lookback(const Bench<T>& b, const char* layout, unsigned first_wait_ns = 0,
              unsigned spin_ns = 0) {
  constexpr std::size_t kPack = 16 / sizeof(T);
  const std::size_t tile = std::size_t(B) * V * kPack, tiles = (b.n + tile - 1) / tile;
  const std::size_t status = tiles * States::kStatusBytes;
  const std::size_t counter = (status + 255) / 256 * 256;
  const std::size_t values = counter + 256;
  if (values + tiles * States::kValueBytes > b.scratch.bytes()) {
    std::fprintf(stderr, "scratch too small\n");
    return;
  }
  char* base = static_cast<char*>(b.scratch.get());
  int per_sm = 0;
  XR_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, k::scan_decoupled_lookback<T, k::SumOp, B, V, kTicket, States>, B, 0));
  XR_CUDA_CHECK(cudaMemsetAsync(base, 0, counter + 8, b.tm.s));
  unsigned long long launch = 0;
  const double ms = b.tm.median_ms(
      [&] {
        const k::LookBackArgs a{base,
                                States::kValueBytes ? base + values : nullptr,
                                reinterpret_cast<unsigned long long*>(base + counter),
                                launch * tiles,
                                unsigned(launch + 1),
                                first_wait_ns,
                                spin_ns,
                                false};
        k::scan_decoupled_lookback<T, k::SumOp, B, V, kTicket, States>
            <<<unsigned(tiles), B, 0, b.tm.s>>>(b.in, b.out, b.n, a);
        XR_CUDA_CHECK(cudaGetLastError());
        ++launch;
      },
      20);
  char check[48] = "";
  if (b.ref) std::snprintf(check, sizeof check, "  %llu wrong", mismatches(b));
  std::printf(
      "  look-back %4d x %2d %-6s%s wait %4u spin %4u (tile %5zu, %d blocks/SM): %.4f ms %6.0f "
      "GB/s  %.3fx cub  %.3fx copy%s\n",
      B, V, layout, kTicket ? "" : " blockIdx", first_wait_ns, spin_ns, tile, per_sm, ms,
      2.0 * sizeof(T) * b.n / (ms * 1e6), b.cub_ms / ms, b.copy_ms / ms, check);
}

// CUB and the copy over n elements of T; runs `body` with the bench.
template <class T, class Body>
void with_bench(Timer& tm, std::size_t n, const char* name, bool check, Body body) {
  DeviceBuffer in(n * sizeof(T)), out(n * sizeof(T)), ref(check ? n * sizeof(T) : 16),
      scratch(((n / 256) + 64) * 16);
  XR_CUDA_CHECK(cudaMemsetAsync(in.get(), 1, n * sizeof(T), tm.s));
  const T* x = in.as<const T>();
  T* y = out.as<T>();
  std::size_t bytes = 0;
  XR_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, x, y, n, tm.s));
  DeviceBuffer temp(std::max<std::size_t>(bytes, 16));
  const double cub = tm.median_ms(
      [&] { XR_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp.get(), bytes, x, y, n, tm.s)); }, 20);
  if (check)
    XR_CUDA_CHECK(cudaMemcpyAsync(ref.get(), y, n * sizeof(T), cudaMemcpyDeviceToDevice, tm.s));
  const double copy = tm.median_ms(
      [&] { XR_CUDA_CHECK(cudaMemcpyAsync(y, x, n * sizeof(T), cudaMemcpyDeviceToDevice, tm.s)); },
      20);
  const double gb = 2.0 * sizeof(T) * n;
  std::printf("%s n = %zu: copy %.4f ms %6.0f GB/s, cub %.4f ms %6.0f GB/s (%.3fx copy)\n", name, n,
              copy, gb / (copy * 1e6), cub, gb / (cub * 1e6), copy / cub);
  body(Bench<T>{tm, x, y, check ? ref.as<const T>() : nullptr, n, scratch, cub, copy});
}

template <class T>
void sweep4(const Bench<T>& b) {
  lookback<T, 128, 8>(b, "packed", 1200, 600);  // the policy
  lookback<T, 128, 8>(b, "packed", 0, 0);       // what SPIR-V can express: no pause
  lookback<T, 128, 16>(b, "packed", 1200, 600);
  lookback<T, 128, 16>(b, "packed", 0, 0);  // Vulkan's shape, no pause
  lookback<T, 256, 8>(b, "packed", 1200, 600);
  lookback<T, 256, 8>(b, "packed", 0, 0);
  lookback<T, 256, 4>(b, "packed", 1200, 600);
  lookback<T, 256, 4>(b, "packed", 0, 0);
}

template <class T>
void sweep8(const Bench<T>& b) {
  using Split = k::SplitTileStates<T>;
  using Halves = k::HalvesTileStates<T>;
  lookback<T, 256, 16, Split>(b, "split", 1200, 600);  // the policy
  lookback<T, 256, 16, Halves>(b, "halves", 1200, 600);
  lookback<T, 224, 12, Split>(b, "split", 1200, 600);  // CUB's sm90 224 x 24 items
  lookback<T, 224, 12, Halves>(b, "halves", 1200, 600);
  lookback<T, 224, 12, Halves>(b, "halves", 600, 300);
  lookback<T, 224, 12, Halves>(b, "halves", 0, 0);
  lookback<T, 128, 16, Split>(b, "split", 1200, 600);
  lookback<T, 128, 16, Halves>(b, "halves", 1200, 600);
  lookback<T, 128, 8, Halves>(b, "halves", 1200, 600);
  lookback<T, 256, 8, Split>(b, "split", 1200, 600);
  lookback<T, 256, 8, Halves>(b, "halves", 1200, 600);
  lookback<T, 256, 8, Halves>(b, "halves", 0, 0);
}

}  // namespace

int main() {
  try {
    cudaDeviceProp p{};
    XR_CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
    std::printf("device %s, %d SMs, L2 %d MiB\n", p.name, p.multiProcessorCount,
                p.l2CacheSize >> 20);
    Stream stream;
    Timer tm{stream.get(), DeviceBuffer(2 * std::size_t(p.l2CacheSize)), Event(), Event()};
    const std::size_t big = std::size_t(1) << 28;
    with_bench<std::uint32_t>(tm, big, "u32", true, [](const auto& b) { sweep4(b); });
    with_bench<float>(tm, big, "f32", false, [](const auto& b) { sweep4(b); });
    for (std::size_t n : {big, big / 2}) {
      with_bench<std::uint64_t>(tm, n, "u64", true, [](const auto& b) { sweep8(b); });
      with_bench<double>(tm, n, "f64", false, [](const auto& b) { sweep8(b); });
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "xreduce_cuda_scan_tune: %s\n", e.what());
    return 1;
  }
  return 0;
}
