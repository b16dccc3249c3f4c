// Tuning sweep behind the fast/* scan policy (dispatch_scan_fast.cu): times the decoupled
// look-back for several tile shapes (threads x 16-byte vectors per thread) against
// cub::DeviceScan::InclusiveSum and a device-to-device copy, 2^28 elements of u32 and f32 (the
// packed tile states; 8-byte types are not swept), cold L2, CUDA events, median of 20. Not part of
// the tool; built on demand: `cmake --build <dir> --target xreduce_cuda_scan_tune`.
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdio>
#include <functional>
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

template <class T, int B, int V, bool kTicket = true>
void lookback(Timer& tm, const T* in, T* out, std::size_t n, DeviceBuffer& scratch, double cub_ms,
              double copy_ms, unsigned first_wait_ns = 0, unsigned spin_ns = 0) {
  const std::size_t tile = std::size_t(B) * V * 4, tiles = (n + tile - 1) / tile;
  int per_sm = 0;
  XR_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, k::scan_decoupled_lookback<T, k::SumOp, B, V, kTicket>, B, 0));
  auto* states = scratch.as<unsigned long long>();
  XR_CUDA_CHECK(cudaMemsetAsync(scratch.get(), 0, (tiles + 1) * 8, tm.s));
  unsigned long long launch = 0;
  const double ms = tm.median_ms(
      [&] {
        const k::LookBackArgs a{
            states,        nullptr, states + tiles, launch * tiles, unsigned(launch + 1),
            first_wait_ns, spin_ns, false};
        k::scan_decoupled_lookback<T, k::SumOp, B, V, kTicket>
            <<<unsigned(tiles), B, 0, tm.s>>>(in, out, n, a);
        XR_CUDA_CHECK(cudaGetLastError());
        ++launch;
      },
      20);
  std::printf(
      "  look-back %4d x %d%s wait %4u spin %4u (tile %5zu, %d blocks/SM): %.4f ms %6.0f GB/s  "
      "%.3fx cub  %.3fx copy\n",
      B, V, kTicket ? "        " : " blockIdx", first_wait_ns, spin_ns, tile, per_sm, ms,
      8.0 * n / (ms * 1e6), cub_ms / ms, copy_ms / ms);
}

template <class T>
void sweep(Timer& tm, std::size_t n, const char* name) {
  DeviceBuffer in(n * 4), out(n * 4), scratch(((n / 256) + 64) * 8);
  XR_CUDA_CHECK(cudaMemsetAsync(in.get(), 1, n * 4, tm.s));
  const T* x = in.as<const T>();
  T* y = out.as<T>();
  std::size_t bytes = 0;
  XR_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, x, y, n, tm.s));
  DeviceBuffer temp(std::max<std::size_t>(bytes, 16));
  const double cub = tm.median_ms(
      [&] { XR_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp.get(), bytes, x, y, n, tm.s)); }, 20);
  const double copy = tm.median_ms(
      [&] { XR_CUDA_CHECK(cudaMemcpyAsync(y, x, n * 4, cudaMemcpyDeviceToDevice, tm.s)); }, 20);
  std::printf("%s n = %zu: copy %.4f ms %6.0f GB/s, cub %.4f ms %6.0f GB/s (%.3fx copy)\n", name, n,
              copy, 8.0 * n / (copy * 1e6), cub, 8.0 * n / (cub * 1e6), copy / cub);
  lookback<T, 256, 4>(tm, x, y, n, scratch, cub, copy);
  lookback<T, 256, 4, false>(tm, x, y, n, scratch, cub, copy);
  lookback<T, 256, 4>(tm, x, y, n, scratch, cub, copy, 0, 300);
  lookback<T, 256, 4>(tm, x, y, n, scratch, cub, copy, 600, 300);
  lookback<T, 256, 4>(tm, x, y, n, scratch, cub, copy, 1200, 600);
  lookback<T, 128, 6>(tm, x, y, n, scratch, cub, copy);
  lookback<T, 128, 6>(tm, x, y, n, scratch, cub, copy, 1200, 600);
  lookback<T, 128, 8>(tm, x, y, n, scratch, cub, copy, 1200, 600);
  lookback<T, 256, 8>(tm, x, y, n, scratch, cub, copy);
  lookback<T, 256, 8>(tm, x, y, n, scratch, cub, copy, 600, 300);
  lookback<T, 256, 8>(tm, x, y, n, scratch, cub, copy, 1200, 600);
  lookback<T, 256, 8, false>(tm, x, y, n, scratch, cub, copy, 1200, 600);
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
    for (std::size_t n : {std::size_t(1) << 28, std::size_t(1) << 24, std::size_t(1) << 20}) {
      sweep<std::uint32_t>(tm, n, "u32");
      sweep<float>(tm, n, "f32");
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "xreduce_cuda_scan_tune: %s\n", e.what());
    return 1;
  }
  return 0;
}
