// lib/cub: cub::DeviceHistogram::HistogramEven, num_levels = bins + 1, over the desc's levels in
// CUB's level type (Level below); CounterT unsigned int for u32 counts, unsigned long long for
// u64. CUB bins as core's EvenBins does (its ScaleTransform: the integer samples' product and
// quotient in 64 bits, the floats' scale rounded once on the host in the sample's type).
// num_samples (CUB's OffsetT, a signed type) is 32-bit below 2^31 samples, 64-bit from there.
//   temp: at.counts (bins counters: an accumulating call's counts, added to the output by
//         histogram_sum_copies), at.cub CUB's, its size the query's for desc.count samples
//   An overwriting call lets CUB write the counts (it zeroes them itself).
#include <cub/device/device_histogram.cuh>
#include <type_traits>

#include "histogram_dispatch.hpp"
#include "kernels/histogram_bins.cuh"

namespace xr::cuda::detail {
namespace {

constexpr int kSumBlock = 256;

// CUB's LevelT for samples of type T: the samples' type for floats (CUB computes in it); an
// integer type that holds each integer type's upper level (u8's 256, u16's 65536: int; i32's
// 2^31 and u32's 2^32: long long), its common type with the sample's then CUB's arithmetic.
template <class T>
using Level = std::conditional_t<std::is_floating_point_v<T>, T,
                                 std::conditional_t<(sizeof(T) < 4), int, long long>>;

// temp == nullptr: query the size into `bytes`.
template <class T, class Counter, class N>
void cub_histogram(void* temp, std::size_t& bytes, const HistogramLevels& levels, const T* samples,
                   Counter* counts, N n, cudaStream_t stream) {
  const auto lower = static_cast<Level<T>>(levels.lower);
  const auto upper = static_cast<Level<T>>(levels.upper);
  XR_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(
      temp, bytes, samples, counts, static_cast<int>(levels.bins + 1), lower, upper, n, stream));
}

// n samples (at most the plan's) with the plan's num_samples width, into `counts`.
void cub_histogram_with_count(void* temp, std::size_t& bytes, const histogram::Plan& plan,
                              std::size_t n, const void* samples, void* counts,
                              cudaStream_t stream) {
  const HistogramDesc& d = plan.desc;
  kernels::with_sample_type(d.dtype, [&]<class T>() {
    kernels::with_counter_type(d.levels.counts, [&]<class Counter>() {
      const auto* s = static_cast<const T*>(samples);
      auto* c = static_cast<Counter*>(counts);
      if (plan.cub_samples == CubCount::bits32)
        cub_histogram(temp, bytes, d.levels, s, c, static_cast<int>(n), stream);
      else
        cub_histogram(temp, bytes, d.levels, s, c, static_cast<long long>(n), stream);
    });
  });
}

}  // namespace

void plan_histogram_cub(histogram::Plan& plan, const DeviceLimits&) {
  const HistogramDesc& d = plan.desc;
  const bool narrow = d.count < (std::uint64_t{1} << 31);
  plan.cub_samples = narrow ? CubCount::bits32 : CubCount::bits64;
  plan.note = "num_samples " + std::string(to_string(plan.cub_samples)) +
              (narrow ? " (fewer than 2^31 samples: CUB's OffsetT int)"
                      : " (2^31 samples or more: CUB's OffsetT long long)");
  plan.tuning = "CUB's own tuning policies; " + plan.note;
  std::size_t bytes = 0;
  cub_histogram_with_count(nullptr, bytes, plan, d.count, nullptr, nullptr, nullptr);
  plan.at.counts = 0;
  plan.at.cub = align256(histogram_counts_bytes(d.levels));
  plan.temp_bytes = plan.at.cub + std::max<std::size_t>(bytes, 16);
}

void enqueue_histogram_cub(const histogram::Plan& plan, const histogram::Call& call,
                           const histogram::Buffers& bufs, cudaStream_t stream) {
  const HistogramDesc& d = plan.desc;
  char* temp = static_cast<char*>(bufs.temp);
  const bool accumulate = call.output == HistogramOutput::accumulate;
  void* counts = accumulate ? temp + plan.at.counts : bufs.counts;
  // CUB's storage for fewer samples is no more than for the plan's: it checks the bytes given.
  std::size_t bytes = plan.temp_bytes - plan.at.cub;
  cub_histogram_with_count(temp + plan.at.cub, bytes, plan, call.n, bufs.samples, counts, stream);
  XR_CUDA_CHECK_LAUNCH();
  if (!accumulate) return;
  kernels::with_counter_type(d.levels.counts, [&]<class Counter>() {
    kernels::histogram_sum_copies<Counter, kSumBlock>
        <<<to_grid(ceil_div(d.levels.bins, kSumBlock)), kSumBlock, 0, stream>>>(
            static_cast<const Counter*>(counts), 1, d.levels.bins,
            static_cast<Counter*>(bufs.counts), true);
    XR_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace xr::cuda::detail
