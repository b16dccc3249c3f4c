// Tuning sweep behind the fast/* policy (dispatch_fast.cu): times fast_vectorized and
// fast_single_pass for several block sizes, unroll depths and grid sizes against
// cub::DeviceReduce on f32 sum, cold L2, CUDA events, median of repetitions. Not part of the
// tool; built on demand: `cmake --build <dir> --target xreduce_cuda_tune`.
//   xreduce_cuda_tune            # 2^28 sweep + small-n single-pass vs CUB
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#include "context.hpp"
#include "kernels/reduce_fast.cuh"
#include "tune/timer.cuh"

namespace k = xr::cuda::kernels;
using xr::cuda::DeviceBuffer;
using xr::cuda::Event;
using xr::cuda::Stream;
using xr::cuda::tune::Timer;

namespace {

template <int B, int U>
void sweep_vectorized(Timer& tm, const float* in, float* part, float* out, std::size_t n, int sms,
                      double cub_ms) {
  int per_sm = 0;
  XR_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, k::fast_vectorized<float, float, k::SumOp, B, U>, B, 0));
  for (int waves : {1, 2, 4}) {
    const unsigned grid = per_sm * sms * waves;
    const double ms = tm.median_ms(
        [&] {
          k::fast_vectorized<float, float, k::SumOp, B, U><<<grid, B, 0, tm.s>>>(in, part, n);
          k::fast_vectorized<float, float, k::SumOp, 256, 4><<<1, 256, 0, tm.s>>>(part, out, grid);
          XR_CUDA_CHECK(cudaGetLastError());
        },
        20);
    std::printf(
        "vectorized block %4d unroll %d blocks/SM %2d waves %d grid %6u: %8.4f ms %7.1f GB/s  "
        "%.3fx cub\n",
        B, U, per_sm, waves, grid, ms, n * 4.0 / (ms * 1e6), cub_ms / ms);
  }
}

template <int B, int U>
double single_pass_ms(Timer& tm, const float* in, float* part, unsigned* ticket, float* out,
                      std::size_t n, int sms, int reps) {
  int per_sm = 0;
  XR_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, k::fast_single_pass<float, k::SumOp, B, U>, B, 0));
  const std::size_t per_block = std::size_t(B) * U * 4;
  const unsigned grid =
      static_cast<unsigned>(std::min<std::size_t>(per_sm * sms, (n + per_block - 1) / per_block));
  return tm.median_ms(
      [&] {
        k::fast_single_pass<float, k::SumOp, B, U><<<grid, B, 0, tm.s>>>(in, part, ticket, out, n);
        XR_CUDA_CHECK(cudaGetLastError());
      },
      reps);
}

}  // namespace

int main() {
  try {
    cudaDeviceProp p{};
    XR_CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
    const int sms = p.multiProcessorCount;
    std::printf("device %s, %d SMs, L2 %d MiB\n", p.name, sms, p.l2CacheSize >> 20);
    Stream stream;
    Timer tm{stream.get(), DeviceBuffer(2 * std::size_t(p.l2CacheSize)), Event(), Event()};
    const std::size_t big = std::size_t(1) << 28;
    DeviceBuffer in(big * 4), part(1 << 20), out(64), ticket(64);
    XR_CUDA_CHECK(cudaMemset(in.get(), 0, big * 4));
    XR_CUDA_CHECK(cudaMemset(ticket.get(), 0, 64));
    const float* x = in.as<const float>();

    auto cub_ms = [&](std::size_t n, int reps) {
      std::size_t bytes = 0;
      XR_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, x, out.as<float>(),
                                           static_cast<std::uint32_t>(n), tm.s));
      DeviceBuffer temp(std::max<std::size_t>(bytes, 16));
      return tm.median_ms(
          [&] {
            XR_CUDA_CHECK(cub::DeviceReduce::Sum(temp.get(), bytes, x, out.as<float>(),
                                                 static_cast<std::uint32_t>(n), tm.s));
          },
          reps);
    };

    const double cub_big = cub_ms(big, 20);
    std::printf("cub 2^28 f32 sum: %.4f ms %.1f GB/s\n", cub_big, big * 4.0 / (cub_big * 1e6));
    sweep_vectorized<128, 4>(tm, x, part.as<float>(), out.as<float>(), big, sms, cub_big);
    sweep_vectorized<256, 2>(tm, x, part.as<float>(), out.as<float>(), big, sms, cub_big);
    sweep_vectorized<256, 4>(tm, x, part.as<float>(), out.as<float>(), big, sms, cub_big);
    sweep_vectorized<256, 8>(tm, x, part.as<float>(), out.as<float>(), big, sms, cub_big);
    sweep_vectorized<512, 4>(tm, x, part.as<float>(), out.as<float>(), big, sms, cub_big);
    for (int e : {10, 12, 14, 16, 18, 20, 22, 24, 28}) {
      const std::size_t n = std::size_t(1) << e;
      const double c = cub_ms(n, 50);
      const double s4 = single_pass_ms<256, 4>(tm, x, part.as<float>(), ticket.as<unsigned>(),
                                               out.as<float>(), n, sms, 50);
      const double s2 = single_pass_ms<256, 2>(tm, x, part.as<float>(), ticket.as<unsigned>(),
                                               out.as<float>(), n, sms, 50);
      std::printf(
          "2^%d: cub %.4f ms | single-pass 256x4 %.4f ms (%.2fx cub) | 256x2 %.4f ms (%.2fx)\n", e,
          c, s4, c / s4, s2, c / s2);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "xreduce_cuda_tune: %s\n", e.what());
    return 1;
  }
  return 0;
}
